import WatchCore

extension Journal {
    /// Opens the journal at start: recovers what it can, starts a new segment (segment record,
    /// snapshot of the restored state, boot record), and returns the journal with what it
    /// restored. Never throws and never refuses: a missing or unreadable journal starts fresh
    /// from `fresh`, and a journal that can't be written is returned failed, with its fault.
    public static func open(
        directory: String = JournalConstants.defaultDirectory,
        limits: JournalLimits = JournalLimits(),
        fileSystem: any JournalFileSystem = PosixFileSystem(),
        fresh: WatchMemory = .fresh(),
        at stamp: Stamp
    ) -> (journal: Journal, recovery: Recovery) {
        let fs = fileSystem
        var notes: [RecoveryNote] = []
        try? fs.makeDirectory(directory)
        var names: [String] = []
        var unlisted = false
        do {
            names = try fs.list(directory)
        } catch {
            let e = error as? FileSystemError ?? FileSystemError(.list, directory, .io)
            if e.errno != .notFound {
                unlisted = true
                notes.append(.unreadableSegment(segment: directory, error: e))
            }
        }
        let sequences = names.compactMap(SegmentName.sequence).sorted()

        // Newest first, until a segment holds a snapshot: usually only the newest is read.
        var newerRecords: [[JournalRecord]] = []
        // What the farthest and the swing are replayed from, after each segment's snapshot
        // (`Recovery.farthest`, `Recovery.swing`).
        var newerFarthest: [[JournalRecord]] = []
        var base: WatchMemory?
        var segments: [Segment] = []
        var segmentNotes: [[RecoveryNote]] = []
        var read = 0, readable = 0
        // How the last run ended, from the newest segment: its last record a shutdown or not.
        var previous: PreviousStop?
        for sequence in sequences.reversed() {
            let name = SegmentName.name(sequence)
            let path = directory + "/" + name
            if base != nil {
                segments.append(Segment(sequence: sequence, size: (try? fs.size(path)) ?? 0, durable: true, empty: false))
                continue
            }
            let bytes: [UInt8]
            do {
                bytes = try fs.read(path, limit: limits.maxSegmentRead)
            } catch {
                let e = error as? FileSystemError ?? FileSystemError(.read, path, .io)
                segmentNotes.append([.unreadableSegment(segment: name, error: e)])
                if previous == nil { previous = .unknown }
                segments.append(Segment(sequence: sequence, size: (try? fs.size(path)) ?? 0, durable: true, empty: false))
                continue
            }
            read += 1
            var records: [JournalRecord] = []
            var farthestRecords: [JournalRecord] = []
            var snapshot: WatchMemory?
            var version: UInt16?
            var last: JournalRecord?
            let summary = SegmentScanner.scan(bytes, segment: name) { _, stamped in
                last = stamped.record
                if case .segment(let v, _) = stamped.record { version = v }
                switch stamped.record {
                case .snapshot: farthestRecords.removeAll()
                case .farthest, .trackFix, .mark, .release, .swing: farthestRecords.append(stamped.record)
                default: break
                }
                if case .snapshot(let m) = stamped.record {
                    snapshot = m
                    records.removeAll()
                } else if stamped.record.type.isDurableAtOnce {
                    records.append(stamped.record)
                }
            }
            if previous == nil {
                // A segment with no whole record is a start or rotation that never reached the
                // card; a version 1 segment never wrote a shutdown record, so it can't say.
                if summary.validEnd == 0 || last == nil {
                    previous = .unclean
                } else if last == .shutdown {
                    previous = .clean
                } else {
                    previous = (version ?? 1) >= 2 ? .unclean : .unknown
                }
            }
            var these = summary.notes
            var size = bytes.count
            let whole = bytes.count < limits.maxSegmentRead || ((try? fs.size(path)) ?? 0) <= bytes.count
            if !whole {
                // Never cut what was not read.
                size = (try? fs.size(path)) ?? bytes.count
                these.append(.oversized(segment: name, bytes: size, read: bytes.count))
            }
            if summary.cutTail, whole {
                do {
                    let file = try fs.openForAppending(path)
                    defer { file.close() }
                    try file.truncate(to: summary.validEnd)
                    try file.syncData()
                    size = summary.validEnd
                } catch {
                    let e = error as? FileSystemError ?? FileSystemError(.truncate, path, .io)
                    these.append(.notTruncated(segment: name, error: e))
                }
            }
            if summary.validEnd > 0 { readable += 1 }
            segmentNotes.append(these)
            segments.append(Segment(sequence: sequence, size: size, durable: true, empty: summary.validEnd == 0))
            newerRecords.append(records)
            newerFarthest.append(farthestRecords)
            base = snapshot
        }
        notes += segmentNotes.reversed().flatMap { $0 }

        var memory = base ?? fresh
        var replayed = 0
        for records in newerRecords.reversed() {
            for record in records { memory.apply(record) }
            replayed += records.count
        }
        var farthest: Meters?
        var swing: SwingEstimator.Memory?
        for records in newerFarthest.reversed() {
            for record in records {
                switch record {
                case .mark, .release:
                    farthest = nil
                    swing = nil
                case .farthest(let m): farthest = m
                case .swing(let m): swing = m
                case .trackFix(let fix): if let d = fix.distance { farthest = max(farthest ?? d, d) }
                default: break
                }
            }
        }
        if memory.anchor == nil {
            farthest = nil
            swing = nil
        }
        if sequences.isEmpty {
            notes.append(unlisted ? .unreadable : .missing)
        } else if readable == 0 {
            notes.append(.unreadable)
        }

        let journal = Journal(directory: directory, limits: limits, fileSystem: fs, memory: memory,
                              older: segments.sorted { $0.sequence < $1.sequence },
                              nextSequence: (sequences.last ?? 0) + 1, farthest: farthest,
                              swing: swing.map { ($0, stamp.monotonic) })
        let after: PreviousStop = sequences.isEmpty ? (unlisted ? .unknown : .firstStart) : previous ?? .unknown
        let result = journal.persist(frame(.boot(after: after), at: stamp), base: memory, at: stamp)
        if case .notSaved(let failure) = result.saved { notes.append(.notWritable(failure)) }

        let faults = notes.filter(\.isFault)
        let fault = faults.isEmpty ? nil : Fault(
            .journal, (faults.first(where: \.pushes) ?? faults[0]).description,
            pushes: faults.contains(where: \.pushes))
        return (journal, Recovery(memory: memory, notes: notes, fault: fault, segmentsRead: read,
                                  recordsReplayed: replayed, previousStop: after, farthest: farthest,
                                  swing: swing))
    }
}
