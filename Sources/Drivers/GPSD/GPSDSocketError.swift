import Glibc

/// A failed system call of the gpsd driver: which call, and its errno.
struct GPSDSocketError: Error, Equatable, CustomStringConvertible {
    var call: String
    var errno: Int32

    var description: String { "\(call): \(String(decoding: strerrorBytes, as: UTF8.self))" }

    private var strerrorBytes: [UInt8] {
        guard let s = strerror(errno) else { return [] }
        var out: [UInt8] = []
        var p = UnsafeRawPointer(s).assumingMemoryBound(to: UInt8.self)
        while p.pointee != 0 { out.append(p.pointee); p += 1 }
        return out
    }

    /// Runs a call that returns -1 and sets errno on failure. EINTR policy: retried, since every
    /// call passed here (socket, connect's first step, getsockopt, fcntl) is safe to repeat or
    /// reports EINPROGRESS/EALREADY rather than losing work; close is never passed here.
    static func check<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(GPSDSocketError) -> T {
        while true {
            let r = body()
            if r != -1 { return r }
            let e = Glibc.errno
            if e == EINTR { continue }
            throw GPSDSocketError(call: call, errno: e)
        }
    }
}
