#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: the call's name and errno, worded for a log line.
struct SystemError: Error, CustomStringConvertible {
    var call: String
    var errno: Int32
    var description: String { "\(call): \(String(cString: strerror(errno)))" }

    /// Runs `body` until it stops failing with EINTR; -1 becomes a thrown SystemError.
    /// For read, write and poll only: close is never retried (its descriptor is gone either way).
    @discardableResult
    static func retrying<T: BinaryInteger>(_ call: String, _ body: () -> T) throws -> T {
        while true {
            let r = body()
            if r >= 0 { return r }
            let e = Glibc.errno
            if e == EINTR { continue }
            throw SystemError(call: call, errno: e)
        }
    }
}
