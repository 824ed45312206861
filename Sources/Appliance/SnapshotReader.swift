import WatchCore
/// What a reader (status, check, snooze) may conclude from the snapshot, without computing
/// any of the watch's state itself.
enum SnapshotReading {
    /// The box answers: what it says may be shown.
    case current(StatusSnapshot)
    /// Past its time: the box is not answering. Show only when it was last heard from.
    case stale(lastHeard: WallTime)
    /// The process that wrote it is gone, or the machine restarted since.
    case stopped(lastHeard: WallTime)
    /// No snapshot: the box is not running (or never ran with this runtime directory).
    case missing
    case unreadable(String)

    static func read(directory: String, now: WallTime = .now()) -> SnapshotReading {
        let bytes: [UInt8]
        do {
            guard let b = try SnapshotFile.read(directory: directory) else { return .missing }
            bytes = b
        } catch {
            return .unreadable("\(error)")
        }
        let snapshot: StatusSnapshot
        do {
            snapshot = try StatusSnapshot(json: try JSON.parse(bytes: bytes))
        } catch {
            return .unreadable("\(SnapshotFile.path(directory)): \(error)")
        }
        return judge(snapshot, now: now, monotonic: BoxIdentity.monotonicSeconds(), bootID: BoxIdentity.bootID(),
                     isAlive: { BoxIdentity.isAlive(pid: $0) })
    }

    /// Pure: the same boot compares monotonic clocks (the wall clock of a Pi may jump at
    /// boot or when it first syncs); otherwise only the wall clock is left.
    static func judge(_ s: StatusSnapshot, now: WallTime, monotonic: Double, bootID: String?,
                      isAlive: (Int32) -> Bool) -> SnapshotReading {
        let validFor = s.validUntil - s.writtenAt
        if let bootID, bootID == s.writer.bootID {
            guard isAlive(s.writer.pid) else { return .stopped(lastHeard: s.writtenAt) }
            return monotonic - s.writer.monotonic > validFor.seconds ? .stale(lastHeard: s.writtenAt) : .current(s)
        }
        if bootID != nil, s.writer.bootID != "unknown" { return .stopped(lastHeard: s.writtenAt) }
        return now > s.validUntil ? .stale(lastHeard: s.writtenAt) : .current(s)
    }
}
