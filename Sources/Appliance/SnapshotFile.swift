import Posix

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
    /// `runtime.directory`'s default, written once in the configuration.
    static let defaultDirectory = RuntimeSection().directory
    static let name = "status.json"
    static let lockName = "status.lock"

    static func path(_ dir: String) -> String { dir + "/" + name }

    /// Replaces the snapshot atomically. Throws `SystemError` with EWOULDBLOCK when another
    /// writer holds the lock: the caller tries again shortly, never waits.
    static func write(_ text: String, directory dir: String) throws { try write(bytes: text.utf8, directory: dir) }

    static func write<C: Collection>(bytes: C, directory dir: String) throws where C.Element == UInt8 {
        try write(bytes: bytes, to: Paths(dir))
    }

    /// The lock's, the file's and the temp file's paths in a directory, made once by a writer
    /// that writes every second while it matters.
    struct Paths {
        let lock: String
        let file: String
        let temporary: String
        init(_ dir: String) {
            lock = dir + "/" + SnapshotFile.lockName
            file = SnapshotFile.path(dir)
            temporary = file + ".tmp"
        }
    }

    static func write<C: Collection>(bytes: C, to paths: Paths) throws where C.Element == UInt8 {
        let lock = try FileDescriptor.open(paths.lock, [.readWrite, .create])
        try lock.lock(.exclusive)
        try Files.writeAtomically(bytes, to: paths.file, temporary: paths.temporary, durable: false)
        lock.close()
    }

    /// The snapshot's text, or nil when there is none.
    static func read(directory dir: String) throws -> [UInt8]? {
        let lock = try? FileDescriptor.open(dir + "/" + lockName)
        if let lock {
            // A writer holds the lock for microseconds; a few short tries, then read anyway:
            // the rename keeps what we read whole either way.
            for _ in 0..<20 {
                if (try? lock.lock(.shared)) != nil { break }
                MonotonicClock.sleep(seconds: 0.005)
            }
        }
        defer { lock?.close() }
        return try Files.readIfPresent(path(dir))
    }
}
