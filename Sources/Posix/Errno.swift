import Glibc

/// A raw errno value from a failed system call, with the ones the box tells apart named.
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Error {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's errno now: read it straight after the call that failed.
    public static var current: Errno {
        get { Errno(rawValue: Glibc.errno) }
        set { Glibc.errno = newValue.rawValue }
    }

    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    public static let readOnly = Errno(rawValue: EROFS)
    public static let io = Errno(rawValue: EIO)
    public static let notFound = Errno(rawValue: ENOENT)
    public static let exists = Errno(rawValue: EEXIST)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let badDescriptor = Errno(rawValue: EBADF)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let accessDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let suspended = Errno(rawValue: ESTRPIPE)
    public static let busy = Errno(rawValue: EBUSY)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let noSuchDevice = Errno(rawValue: ENXIO)
    public static let invalid = Errno(rawValue: EINVAL)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    public static let inProgress = Errno(rawValue: EINPROGRESS)
    public static let already = Errno(rawValue: EALREADY)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let messageTooLong = Errno(rawValue: EMSGSIZE)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)

    /// The errno of a C library that returns `-errno` (libgpiod's shim, alsa-lib); nil for a
    /// result that is not a failure.
    public init?<T: BinaryInteger>(negated result: T) {
        guard result < 0, let code = Int32(exactly: 0 - result) else { return nil }
        self.init(rawValue: code)
    }

    /// EAGAIN or EWOULDBLOCK (the same number on Linux, two names in POSIX).
    public var isWouldBlock: Bool { rawValue == EAGAIN || rawValue == EWOULDBLOCK }

    /// The C library's own words ("No space left on device").
    public var description: String { String(cString: strerror(rawValue)) }
}

/// A failed system call: which one (with its path or peer when that helps), and errno. The one
/// error type the room throws; targets above it wrap it in their own words where they need to.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Errno
    /// Words that say more than errno's ("larger than 1 MiB"), when the room has them.
    public var detail: String?

    public init(call: String, errno: Errno, detail: String? = nil) {
        self.call = call
        self.errno = errno
        self.detail = detail
    }

    public var description: String { "\(call): \(detail ?? errno.description)" }
    public var wouldBlock: Bool { errno.isWouldBlock }
}

/// The one EINTR policy, and its one loop (`again`): a call interrupted by a signal before it
/// did anything is retried (read, write, send, recv, accept, poll, connect-wait, open, fsync,
/// fdatasync, ftruncate, flock, ioctl, and libgpiod's reads and writes through `negative`);
/// `close` never is, because on Linux the descriptor is gone even when close reports EINTR, and
/// a retry could close one another part of the box just opened.
public enum Syscall {
    /// Runs `body` until it returns something other than -1 or fails other than with EINTR.
    @discardableResult
    public static func check<T: BinaryInteger>(_ call: @autoclosure () -> String, _ body: () -> T) throws -> T {
        switch retrying(body) {
        case .success(let r): return r
        case .failure(let e): throw SystemError(call: call(), errno: e)
        }
    }

    /// For non-blocking descriptors: nil when the call would block (EAGAIN), without the cost
    /// of an error on the loop's every turn.
    public static func attempt<T: BinaryInteger>(_ call: @autoclosure () -> String, _ body: () -> T) throws -> T? {
        switch retrying(body) {
        case .success(let r): return r
        case .failure(let e) where e.isWouldBlock: return nil
        case .failure(let e): throw SystemError(call: call(), errno: e)
        }
    }

    /// For waits that must not start again as they were (poll with a timeout, nanosleep): EINTR
    /// gives nil, and the caller works out what is left of its wait.
    public static func interruptible<T: BinaryInteger>(_ call: @autoclosure () -> String, _ body: () -> T) throws -> T? {
        let r = body()
        if r != -1 { return r }
        let e = Glibc.errno
        if e == EINTR { return nil }
        throw SystemError(call: call(), errno: Errno(rawValue: e))
    }

    @inline(__always)
    private static func retrying<T: BinaryInteger>(_ body: () -> T) -> Result<T, Errno> {
        let r = again(body) { $0 == -1 && Glibc.errno == EINTR }
        return r == -1 ? .failure(.current) : .success(r)
    }

    /// For C libraries that return `-errno` (libgpiod's shim): the same rule, the result or its
    /// errno.
    public static func negative<T: SignedInteger>(_ body: () -> T) -> Result<T, Errno> {
        let r = again(body) { $0 == -T(EINTR) }
        return Errno(negated: r).map { .failure($0) } ?? .success(r)
    }

    /// The one EINTR loop: `body` again while its result says it was interrupted.
    @inline(__always)
    private static func again<T>(_ body: () -> T, interrupted: (T) -> Bool) -> T {
        while true {
            let r = body()
            if !interrupted(r) { return r }
        }
    }
}
