import WatchCore

/// A record as the command-line surfaces read it back.
public struct JournalEntry: Hashable, Sendable {
    public var stamp: Stamp
    public var record: JournalRecord
    public var segment: UInt64
    public var offset: Int
    /// How many boot records came before this one: records of one boot share a monotonic clock.
    public var boot: Int
}

/// Where the boat was, from the track.
public struct TrackPoint: Hashable, Sendable {
    public var position: Coordinate
    public var wall: WallTime
    public var accuracy: Meters?
}

/// Reads the journal for the command line (recap, export, `mark --ago`), with the same recovery
/// rules as `Journal.open` but changing nothing on disk: safe while the box is running.
public struct JournalReader {
    public let directory: String
    let fs: any JournalFileSystem
    /// At most this much of one segment is read.
    let readLimit: Int

    public init(directory: String = JournalConstants.defaultDirectory,
                fileSystem: any JournalFileSystem = PosixFileSystem(),
                readLimit: Int = JournalConstants.maxSegmentRead) {
        self.directory = directory
        self.fs = fileSystem
        self.readLimit = readLimit
    }

    /// Visits every good record, oldest first, whose wall time is in `wall` (all if nil); stops
    /// after the segment in which `visit` returned false. Returns what recovery found.
    @discardableResult
    public func forEach(wall: ClosedRange<WallTime>? = nil, _ visit: (JournalEntry) -> Bool) -> [RecoveryNote] {
        let names: [String]
        do {
            names = try fs.list(directory)
        } catch {
            let e = error as? FileSystemError ?? FileSystemError(.list, directory, .io)
            return [e.errno == .notFound ? .missing : .unreadableSegment(segment: directory, error: e)]
        }
        let sequences = names.compactMap(SegmentName.sequence).sorted()
        if sequences.isEmpty { return [.missing] }
        var notes: [RecoveryNote] = []
        var boot = 0
        var going = true
        for sequence in sequences where going {
            let name = SegmentName.name(sequence)
            let bytes: [UInt8]
            do {
                bytes = try fs.read(directory + "/" + name, limit: readLimit)
                if bytes.count == readLimit,
                   let size = try? fs.size(directory + "/" + name), size > bytes.count {
                    notes.append(.oversized(segment: name, bytes: size, read: bytes.count))
                }
            } catch {
                let e = error as? FileSystemError ?? FileSystemError(.read, name, .io)
                notes.append(.unreadableSegment(segment: name, error: e))
                continue
            }
            let summary = SegmentScanner.scan(bytes, segment: name) { offset, stamped in
                if case .boot = stamped.record { boot += 1 }
                guard going, wall.map({ $0.contains(stamped.stamp.wall) }) ?? true else { return }
                going = visit(JournalEntry(stamp: stamped.stamp, record: stamped.record, segment: sequence,
                                           offset: offset, boot: boot))
            }
            notes += summary.notes
        }
        return notes
    }

    /// Where the boat was at wall time `t`: between the track fixes just before and just after
    /// it (interpolated when both are within `tolerance`), else the nearest within `tolerance`.
    /// nil when the track has nothing that close (the journal was off, or the clock jumped).
    public func position(at t: WallTime, tolerance: Duration = .seconds(60)) -> TrackPoint? {
        var before: TrackPoint?, after: TrackPoint?
        let window = (t - tolerance)...(t + tolerance)
        forEach(wall: window) { entry in
            guard case .trackFix(let fix) = entry.record else { return true }
            let point = TrackPoint(position: fix.position, wall: entry.stamp.wall, accuracy: fix.accuracy)
            if point.wall <= t, before.map({ point.wall >= $0.wall }) ?? true { before = point }
            if point.wall >= t, after.map({ point.wall <= $0.wall }) ?? true { after = point }
            return true
        }
        switch (before, after) {
        case (let b?, let a?) where a.wall > b.wall && abs(a.position.longitude - b.position.longitude) < 180:
            let share = (t - b.wall).seconds / (a.wall - b.wall).seconds
            let lat = b.position.latitude + (a.position.latitude - b.position.latitude) * share
            let lon = b.position.longitude + (a.position.longitude - b.position.longitude) * share
            let accuracy: Meters? = (b.accuracy != nil && a.accuracy != nil) ? max(b.accuracy!, a.accuracy!) : nil
            return TrackPoint(position: Coordinate(latitude: lat, longitude: lon), wall: t, accuracy: accuracy)
        case (let b?, _): return b
        case (nil, let a?): return a
        case (nil, nil): return nil
        }
    }
}
