#if canImport(Glibc)
import Glibc
#endif
import WatchCore
import Journal

/// The running box's side of the status snapshot. The loop calls `publish` after every turn;
/// it writes when what the box says changed, and otherwise once per `interval`, so a reader
/// can tell a quiet box from a stopped one. It never blocks and never throws into the loop: a
/// failed write is kept in `lastError` and tried again on the next turn.
final class SnapshotWriter {
    let directory: String
    let interval: Duration
    /// Components this box drives, for the Systems Check rows (see `SystemsCheck.boxRows`).
    let fitted: Set<SystemsCheck.Component>
    /// Components the configuration says are not fitted.
    var absent: Set<SystemsCheck.Component> = []
    private let bootID: String
    private let pid: Int32
    private var lastContent: JSON?
    private var lastWrite: Instant?
    private var retryAt: Instant?
    private(set) var lastError: PosixError?
    private(set) var writes = 0
    /// The snapshot last built (written or not), for outputs that publish it elsewhere (MQTT).
    private(set) var last: StatusSnapshot?
    /// The `SystemsMonitor`'s rows, for the Systems Check in the snapshot.
    var localRows: (() -> [SystemsCheck.Row])?

    init(directory: String = SnapshotFile.defaultDirectory, interval: Duration = .seconds(30),
         fitted: Set<SystemsCheck.Component>) throws {
        self.directory = directory
        self.interval = interval
        self.fitted = fitted
        self.bootID = BoxIdentity.bootID() ?? "unknown"
        self.pid = getpid()
        // Owner and group may enter (the control socket's group reaches the socket); others
        // can still read the snapshot through the directory's read and search bits.
        try Posix.makeDirectories(directory, mode: 0o755)
    }

    /// When the loop must call `publish` again even if nothing happens.
    func nextDeadline() -> Instant? {
        if let retryAt { return retryAt }
        return lastWrite.map { $0 + interval }
    }

    /// Writes the snapshot if it changed or the steady interval is due. `now` is the loop's
    /// monotonic instant (the watch's clock); `wall` the same moment on the wall clock.
    /// `localRows` are the `SystemsMonitor`'s last rows. Returns true when it wrote.
    @discardableResult
    func publish(_ status: WatchStatus, now: Instant, wall: WallTime = .now(), localRows: [SystemsCheck.Row] = []) -> Bool {
        let snapshot = StatusSnapshot(
            status: status, now: now, wall: wall,
            writer: .init(bootID: bootID, pid: pid, monotonic: BoxIdentity.monotonicSeconds()),
            validFor: StatusSnapshot.validity(interval: interval),
            checks: SystemsCheck.boxRows(status: status, fitted: fitted, absent: absent, local: localRows))
        last = snapshot
        let content = snapshot.content
        let due = lastWrite.map { now >= $0 + interval } ?? true
        let retry = retryAt.map { now >= $0 } ?? false
        guard due || retry || content != lastContent else { return false }
        do {
            try SnapshotFile.write(snapshot.json.text(indented: true) + "\n", directory: directory)
            lastContent = content
            lastWrite = now
            retryAt = nil
            lastError = nil
            writes += 1
            return true
        } catch let e as PosixError {
            lastError = e
            retryAt = now + .seconds(1)
            return false
        } catch {
            retryAt = now + .seconds(1)
            return false
        }
    }

    /// On a clean stop: remove the snapshot, so readers say "not running" at once rather than
    /// "not answering" after a while.
    func remove() {
        _ = SnapshotFile.path(directory).withCString { unlink($0) }
    }
}
