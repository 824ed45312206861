import WatchCore

/// The segments: naming, starting a new one (with its snapshot), retiring one that failed,
/// and deleting old ones (compaction, and freeing space on ENOSPC).
extension Journal {
    var segmentPaths: [String] { (older.map(\.sequence) + [active?.segment.sequence].compactMap { $0 }).map(path) }

    func path(_ sequence: UInt64) -> String { directory + "/" + SegmentName.name(sequence) }

    /// A new segment: its segment and snapshot records are written here and synced with the
    /// first commit; the directory is synced right after.
    func startSegment(snapshot: WatchMemory, at stamp: Stamp) throws {
        if let a = active {
            a.file.close()
            older.append(a.segment)
            active = nil
        }
        var file: (any JournalFile)?
        var sequence = nextSequence
        // A stray file with the next name (left by a crash before a listing could see it) is skipped.
        for _ in 0..<8 {
            sequence = nextSequence
            nextSequence += 1
            do {
                file = try fs.create(path(sequence))
                break
            } catch let e as FileSystemError where e.errno == .exists {
                continue
            }
        }
        guard let file else { throw FileSystemError(.create, path(sequence), .exists) }
        active = (Segment(sequence: sequence, size: 0, durable: false, empty: false), file)
        stats.segmentsStarted += 1
        let head = Self.frame(.segment(version: JournalConstants.formatVersion, sequence: sequence), at: stamp)
            + Self.frame(.snapshot(snapshot), at: stamp)
            + (snapshot.anchor == nil ? [] : farthest.map { Self.frame(.farthest($0), at: stamp) } ?? [])
            + swingHead(snapshot, at: stamp)
        try file.append(head)
        active!.segment.size += head.count
        stats.bytesWritten += head.count
    }

    /// The swing record a new segment carries after its snapshot: the latest handed on, aged to
    /// the segment's start; none without an anchor, and none where it would take more than a
    /// quarter of a segment (test segments of 512 bytes: every segment would start full).
    private func swingHead(_ snapshot: WatchMemory, at stamp: Stamp) -> [UInt8] {
        guard snapshot.anchor != nil, let swing else { return [] }
        let frame = Self.frame(.swing(swing.memory.aged(by: stamp.monotonic - swing.at)), at: stamp)
        return frame.count <= limits.segmentBytes / 4 ? frame : []
    }

    /// A segment that failed a write or a sync is never written again.
    func poisonActive() {
        guard let a = active else { return }
        a.file.close()
        older.append(a.segment)
        active = nil
    }

    /// Deletes old segments now that the active one is durable: empty ones, then oldest first
    /// while over the size limit or short of free space. A delete lost to a crash comes back as
    /// an older segment, which the newer snapshot supersedes: harmless.
    func compact() {
        older.sort { $0.sequence < $1.sequence }
        var total = older.reduce(active?.segment.size ?? 0) { $0 + $1.size }
        var free = try? fs.freeSpace(directory)
        var kept: [Segment] = []
        var deleted = 0
        for segment in older {
            let over = total > limits.totalBytes || (free.map { $0 < limits.minFreeBytes } ?? false)
            guard segment.empty || over else {
                kept.append(segment)
                continue
            }
            if (try? fs.unlink(path(segment.sequence))) != nil {
                total -= segment.size
                free = free.map { $0 + Int64(segment.size) }
                deleted += 1
            } else {
                kept.append(segment)
            }
        }
        older = kept
        stats.segmentsDeleted += deleted
        if deleted > 0, (try? fs.syncDirectory(directory)) != nil { stats.directorySyncs += 1 }
    }

    /// On ENOSPC: delete every segment except the newest durable one (its snapshot and records
    /// hold the last saved state), then the caller retries once in a new segment.
    func freeSpaceForRetry() {
        older.sort { $0.sequence < $1.sequence }
        let keep = older.last(where: \.durable)?.sequence
        var kept: [Segment] = []
        for segment in older {
            if segment.sequence == keep || (try? fs.unlink(path(segment.sequence))) == nil {
                kept.append(segment)
            } else {
                stats.segmentsDeleted += 1
            }
        }
        older = kept
        try? fs.syncDirectory(directory)
    }
}
