#if canImport(Glibc)
import Glibc
#endif

/// IPv4 sockets for the network outputs: a non-blocking TCP listener and a UDP sender. The
/// only file of the box that touches sockaddr_in.
enum InetSocket {
    /// An IPv4 address in dotted form (never a name: a lookup could block the loop).
    static func address(_ host: String, port: Int) -> sockaddr_in? {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else { return nil }
        return addr
    }

    static func withSockaddr<R>(_ addr: sockaddr_in, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        var a = addr
        return try withUnsafePointer(to: &a) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// A listening TCP socket, non-blocking, on `host:port`.
    static func listen(host: String, port: Int, backlog: Int32 = 8) throws -> Int32 {
        guard let addr = address(host, port: port) else {
            throw PosixError(call: "listen address \(host) (an IPv4 address is needed)", code: EINVAL)
        }
        let fd = try Posix.check("socket") {
            socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            try withSockaddr(addr) { a, len in _ = try Posix.check("bind \(host):\(port)") { bind(fd, a, len) } }
            try Posix.check("listen") { Glibc.listen(fd, backlog) }
        } catch {
            Posix.close(fd)
            throw error
        }
        return fd
    }

    /// The port a socket is bound to (a test asks for port 0 and reads what it got).
    static func boundPort(_ fd: Int32) -> Int? {
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let r = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return r == 0 ? Int(UInt16(bigEndian: addr.sin_port)) : nil
    }

    /// A non-blocking UDP socket allowed to broadcast.
    static func udpSender() throws -> Int32 {
        let fd = try Posix.check("socket") {
            socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Where UDP goes for a named interface: its IPv4 broadcast address, or its own address
    /// when it has none (the loopback interface). nil while the interface has no IPv4 address.
    static func broadcastAddress(interface: String, port: Int) -> sockaddr_in? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var p = list
        while let ifa = p {
            defer { p = ifa.pointee.ifa_next }
            guard let name = ifa.pointee.ifa_name, String(cString: name) == interface,
                let sa = ifa.pointee.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            let flags = ifa.pointee.ifa_flags
            let source: UnsafeMutablePointer<sockaddr>? = flags & UInt32(IFF_BROADCAST) != 0
                ? ifa.pointee.ifa_ifu.ifu_broadaddr : sa
            guard let source else { continue }
            var out = source.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
            out.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
            return out
        }
        return nil
    }

    static func describe(_ addr: sockaddr_in) -> String {
        var a = addr.sin_addr
        var buf = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        _ = inet_ntop(AF_INET, &a, &buf, socklen_t(buf.count))
        return "\(buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }):\(UInt16(bigEndian: addr.sin_port))"
    }
}
