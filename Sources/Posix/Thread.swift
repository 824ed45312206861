import Glibc

/// A mutex with one condition: the hand-over between the loop and a worker thread.
public final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` under the lock if it is free now; nil (and `body` not run) when another
    /// thread holds it. For the loop's side, which must never wait for a worker.
    public func lockedIfFree<T>(_ body: () throws -> T) rethrows -> T? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Under the lock: waits until `ready()` holds, then runs `body`.
    public func locked<T>(when ready: () -> Bool, _ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready() { pthread_cond_wait(condition, mutex) }
        return try body()
    }

    /// Wakes one waiter of `locked(when:)`; call it holding the lock (inside `locked`).
    public func signal() { pthread_cond_signal(condition) }
}

/// One thread running `body`, joined with `join()`.
public final class WorkerThread: @unchecked Sendable {
    private var thread: pthread_t?

    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts the thread; throws when the system has none to give.
    public init(_ body: @escaping () -> Void) throws {
        let box = Unmanaged.passRetained(Body(body))
        var t = pthread_t()
        let r = pthread_create(&t, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        guard r == 0 else {
            box.release()
            throw SystemError(call: "pthread_create", errno: Errno(rawValue: r))
        }
        thread = t
    }

    /// Waits for the thread to end (once).
    public func join() {
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }
}

/// A non-blocking pipe one thread rings and another polls: `ring` writes a byte, `drain` reads
/// them all and says whether there was any.
public final class WakePipe: @unchecked Sendable {
    public let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor

    public init() throws {
        (readEnd, writeEnd) = try FileDescriptor.pipe()
    }

    public func ring() {
        var byte: UInt8 = 1
        _ = try? withUnsafeBytes(of: &byte) { try writeEnd.write($0) }
    }

    public func drain() -> Bool {
        var any = false
        var sink = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while let n = (try? withUnsafeMutableBytes(of: &sink) { try readEnd.readNow(into: $0) }) ?? nil, n > 0 { any = true }
        return any
    }
}
