#if canImport(Glibc)
import Glibc
#endif

/// Where the snapshot lives and how it is replaced. One writer at a time holds an exclusive
/// flock on `status.lock` while it writes `status.json.tmp` and renames it over `status.json`;
/// the rename is what makes a reader see the whole old or the whole new file, and the lock is
/// what keeps two writers (a second box started by mistake, a test) from renaming each other's
/// half-written temp file. Readers take the shared lock briefly, and read anyway if it is busy.
///
/// No fsync: the default directory /run/anchor-alert is tmpfs (RAM), where fsync does nothing,
/// and the file never needs to survive a power cut, because a snapshot from an earlier boot is
/// not believed (boot id). On an SD card a sync per write would cost wear for nothing.
enum SnapshotFile {
    static let defaultDirectory = "/run/anchor-alert"
    static let name = "status.json"
    static let lockName = "status.lock"

    static func path(_ dir: String) -> String { dir + "/" + name }

    /// Replaces the snapshot atomically. Throws `PosixError` with EWOULDBLOCK when another
    /// writer holds the lock: the caller tries again shortly, never waits.
    static func write(_ text: String, directory dir: String) throws {
        let lock = try Posix.check("open \(dir)/\(lockName)") { open(dir + "/" + lockName, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        defer { Posix.close(lock) }
        try Posix.check("flock") { flock(lock, LOCK_EX | LOCK_NB) }
        let tmp = dir + "/" + name + ".tmp"
        let fd = try Posix.check("open \(tmp)") { open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        do {
            _ = fchmod(fd, 0o644)
            try Posix.writeAll(fd, Array(text.utf8), call: "write \(tmp)")
        } catch {
            Posix.close(fd)
            unlink(tmp)
            throw error
        }
        Posix.close(fd)
        try Posix.check("rename \(tmp)") { rename(tmp, path(dir)) }
    }

    /// The snapshot's text, or nil when there is none.
    static func read(directory dir: String) throws -> [UInt8]? {
        let lock = open(dir + "/" + lockName, O_RDONLY | O_CLOEXEC)
        if lock >= 0 {
            // A writer holds the lock for microseconds; a few short tries, then read anyway:
            // the rename keeps what we read whole either way.
            for _ in 0..<20 {
                if flock(lock, LOCK_SH | LOCK_NB) == 0 { break }
                usleep(5_000)
            }
        }
        defer { if lock >= 0 { Posix.close(lock) } }
        return try Posix.readFile(path(dir))
    }
}
