#if canImport(Glibc)
import Glibc
#endif
import Journal
import JournalTestSupport

/// The journal's simulated card, made slow or failing on demand from another thread: every
/// `syncData` and `syncDirectory` first sleeps `syncDelay`, then fails with EIO while
/// `failSyncs` is set. Thread-safe, because the journal's writer works on its own thread while
/// the test changes the card.
final class FlakyFileSystem: JournalFileSystem, @unchecked Sendable {
    let inner = SimulatedFileSystem()
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var _failSyncs = false
    private var _syncDelay: Duration = .zero
    private var _syncs = 0

    init() { pthread_mutex_init(lock, nil) }
    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    var failSyncs: Bool {
        get { locked { _failSyncs } }
        set { locked { _failSyncs = newValue } }
    }
    var syncDelay: Duration {
        get { locked { _syncDelay } }
        set { locked { _syncDelay = newValue } }
    }
    /// Syncs attempted, failed or not.
    var syncs: Int { locked { _syncs } }

    /// Called by the writer's thread for every sync: waits, then fails if asked.
    func sync(_ path: String, _ op: FileSystemError.Operation) throws {
        let (delay, fail) = locked { () -> (Duration, Bool) in
            _syncs += 1
            return (_syncDelay, _failSyncs)
        }
        if delay > .zero {
            var ts = timespec(tv_sec: Int(delay.components.seconds), tv_nsec: Int(delay.components.attoseconds / 1_000_000_000))
            var left = timespec()
            while nanosleep(&ts, &left) != 0 && errno == EINTR { ts = left }
        }
        if fail { throw FileSystemError(op, path, .io) }
    }

    // Everything else goes to the simulated card, under the lock.
    func list(_ directory: String) throws -> [String] { try locked { Result { try inner.list(directory) } }.get() }
    func makeDirectory(_ path: String) throws { try locked { Result { try inner.makeDirectory(path) } }.get() }
    func read(_ path: String) throws -> [UInt8] { try locked { Result { try inner.read(path) } }.get() }
    func size(_ path: String) throws -> Int { try locked { Result { try inner.size(path) } }.get() }
    func create(_ path: String) throws -> any JournalFile {
        FlakyFile(fs: self, path: path, inner: try locked { Result { try inner.create(path) } }.get())
    }
    func openForAppending(_ path: String) throws -> any JournalFile {
        FlakyFile(fs: self, path: path, inner: try locked { Result { try inner.openForAppending(path) } }.get())
    }
    func rename(_ from: String, to: String) throws { try locked { Result { try inner.rename(from, to: to) } }.get() }
    func unlink(_ path: String) throws { try locked { Result { try inner.unlink(path) } }.get() }
    func syncDirectory(_ path: String) throws {
        try sync(path, .syncDirectory)
        try locked { Result { try inner.syncDirectory(path) } }.get()
    }
    func freeSpace(_ path: String) throws -> Int64 { try locked { Result { try inner.freeSpace(path) } }.get() }

    final class FlakyFile: JournalFile {
        let fs: FlakyFileSystem
        let path: String
        let inner: any JournalFile
        init(fs: FlakyFileSystem, path: String, inner: any JournalFile) {
            self.fs = fs
            self.path = path
            self.inner = inner
        }
        func append(_ bytes: [UInt8]) throws { try fs.locked { Result { try inner.append(bytes) } }.get() }
        func syncData() throws {
            try fs.sync(path, .sync)
            try fs.locked { Result { try inner.syncData() } }.get()
        }
        func truncate(to size: Int) throws { try fs.locked { Result { try inner.truncate(to: size) } }.get() }
        func close() { fs.locked { inner.close() } }
    }
}
