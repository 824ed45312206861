#if canImport(Glibc)
import Glibc
#endif

/// AF_UNIX stream sockets, the one place the surfaces touch sockaddr_un.
enum UnixSocket {
    /// sun_path holds 108 bytes with its terminating zero.
    static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) throws -> R {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else { throw PosixError(call: "socket path \(path)", code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let len = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        return try withUnsafePointer(to: &addr) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, len) }
        }
    }

    static func make(nonBlocking: Bool) throws -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return try Posix.check("socket") { socket(AF_UNIX, type, 0) }
    }

    /// A connected client socket (blocking), or the error (ENOENT, ECONNREFUSED, EACCES...).
    static func connect(to path: String) throws -> Int32 {
        let fd = try make(nonBlocking: false)
        do {
            try withAddress(path) { addr, len in
                _ = try Posix.check("connect \(path)") { Glibc.connect(fd, addr, len) }
            }
        } catch {
            Posix.close(fd)
            throw error
        }
        return fd
    }

    /// Sends without SIGPIPE: a client that went away must not kill the box.
    static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws -> Int {
        try Posix.check("send") {
            bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }
}
