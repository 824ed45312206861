import Glibc

extension FileDescriptor {
    /// Sends what the socket takes now: nil when it would block, the bytes sent otherwise.
    /// Never raises SIGPIPE.
    public func sendNow(_ bytes: [UInt8]) throws -> Int? {
        try bytes.withUnsafeBytes { b in
            try Syscall.attempt("send") { Glibc.send(rawValue, b.baseAddress, b.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
    }

    /// Receives what is there now: nil when nothing is (would block), 0 when the peer closed.
    public func receiveNow(into buffer: inout [UInt8]) throws -> Int? {
        try buffer.withUnsafeMutableBytes { try receiveNow(into: $0) }
    }

    public func receiveNow(into buffer: UnsafeMutableRawBufferPointer, peek: Bool = false) throws -> Int? {
        try Syscall.attempt("recv") {
            Glibc.recv(rawValue, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT) | (peek ? Int32(MSG_PEEK) : 0))
        }
    }

    /// Accepts one waiting connection, non-blocking and close-on-exec; nil when none waits.
    public func accept() throws -> FileDescriptor? {
        guard let fd = try Syscall.attempt("accept", { Glibc.accept(rawValue, nil, nil) }) else { return nil }
        // accept4 is hidden behind _GNU_SOURCE in Glibc's Swift module: set the flags here.
        let client = FileDescriptor(adopting: fd)
        try client.setNonBlocking()
        try client.setCloseOnExec()
        return client
    }

    /// SO_SNDBUF: how much the kernel keeps for a peer that does not read.
    public func setSendBuffer(_ bytes: Int32) {
        var size = bytes
        _ = setsockopt(rawValue, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// One datagram to `address`, never waiting (a full buffer loses it, as UDP may anyway).
    @discardableResult
    public func sendDatagram(_ bytes: [UInt8], to address: SocketAddress) -> Bool {
        address.withSockaddr { a, len in
            bytes.withUnsafeBytes { sendto(rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), a, len) }
        } >= 0
    }

    /// SO_ERROR: the outcome of a non-blocking connect once the socket is writable.
    public func pendingError() -> Errno? {
        var err: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(rawValue, SOL_SOCKET, SO_ERROR, &err, &len) == 0 else { return .current }
        return err == 0 ? nil : Errno(rawValue: err)
    }
}

/// An IPv4 address and port.
public struct SocketAddress: Sendable, CustomStringConvertible {
    fileprivate var storage: sockaddr_in

    /// A dotted IPv4 address (never a name: a lookup could block the loop).
    public init?(host: String, port: Int) {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else { return nil }
        storage = addr
    }

    fileprivate init(_ storage: sockaddr_in) { self.storage = storage }

    public var port: Int { Int(UInt16(bigEndian: storage.sin_port)) }

    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        var a = storage
        return try withUnsafePointer(to: &a) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Where UDP goes for a named interface: its IPv4 broadcast address, or its own address
    /// when it has none (the loopback interface). nil while the interface has no IPv4 address.
    public static func broadcast(interface: String, port: Int) -> SocketAddress? {
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
            return SocketAddress(out)
        }
        return nil
    }

    public var description: String {
        var a = storage.sin_addr
        var buf = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        _ = inet_ntop(AF_INET, &a, &buf, socklen_t(buf.count))
        return "\(buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }):\(port)"
    }
}

/// IPv4 sockets for the network outputs and the test fixtures: a non-blocking TCP listener, a
/// UDP sender, a non-blocking TCP connect.
public enum InetSocket {
    private static func make(_ type: __socket_type, nonBlocking: Bool = true) throws -> FileDescriptor {
        let flags = Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return FileDescriptor(adopting: try Syscall.check("socket") { socket(AF_INET, flags, 0) })
    }

    /// A listening TCP socket, non-blocking, on `host:port`.
    public static func listen(host: String, port: Int, backlog: Int32 = 8) throws -> FileDescriptor {
        guard let addr = SocketAddress(host: host, port: port) else {
            throw SystemError(call: "listen address \(host) (an IPv4 address is needed)", errno: .invalid)
        }
        let fd = try make(SOCK_STREAM)
        var one: Int32 = 1
        _ = setsockopt(fd.rawValue, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        try addr.withSockaddr { a, len in _ = try Syscall.check("bind \(host):\(port)") { bind(fd.rawValue, a, len) } }
        try Syscall.check("listen") { Glibc.listen(fd.rawValue, backlog) }
        return fd
    }

    /// The port a socket is bound to (a test asks for port 0 and reads what it got).
    public static func boundPort(_ fd: FileDescriptor) -> Int? { boundPort(fd.rawValue) }

    public static func boundPort(_ fd: Int32) -> Int? {
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let r = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return r == 0 ? SocketAddress(addr).port : nil
    }

    /// For tests driving raw sockets: the address, and its sockaddr for bind or connect.
    public static func address(_ host: String, port: Int) -> SocketAddress? { SocketAddress(host: host, port: port) }

    public static func withSockaddr<R>(_ address: SocketAddress, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        try address.withSockaddr(body)
    }

    /// A non-blocking UDP socket allowed to broadcast, connected to `target`: bound to the one
    /// local address the route to it uses (not every interface), and taking datagrams from
    /// `target` only, which a broadcast address never sends, so nothing queues unread. Its
    /// receive buffer is the smallest the kernel allows as well.
    public static func udpSender(connectedTo target: SocketAddress) throws -> FileDescriptor {
        let fd = try make(SOCK_DGRAM)
        var one: Int32 = 1
        _ = setsockopt(fd.rawValue, SOL_SOCKET, SO_BROADCAST, &one, socklen_t(MemoryLayout<Int32>.size))
        var small: Int32 = 1
        _ = setsockopt(fd.rawValue, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        try Syscall.check("connect UDP to \(target)") { target.withSockaddr { a, len in Glibc.connect(fd.rawValue, a, len) } }
        return fd
    }

    /// Starts a TCP connect without waiting: the socket, and whether it is connected already
    /// (loopback may be) or in progress (poll for writable, then `pendingError`).
    public static func startConnect(to address: SocketAddress) throws -> (socket: FileDescriptor, connected: Bool) {
        let fd = try make(SOCK_STREAM)
        let r = address.withSockaddr { a, len in Glibc.connect(fd.rawValue, a, len) }
        if r == 0 { return (fd, true) }
        let e = Errno.current
        if e == .inProgress || e == .interrupted || e == .already { return (fd, false) }
        throw SystemError(call: "connect \(address)", errno: e)
    }
}

/// AF_UNIX stream sockets: the control socket and its clients.
public enum UnixSocket {
    /// One datagram to the unix socket at `path` (`@name`: the abstract namespace), never
    /// waiting (MSG_DONTWAIT, MSG_NOSIGNAL), as sd_notify(3) sends its notifications; EINTR is
    /// retried (the room's one policy).
    public static func sendDatagram(_ bytes: [UInt8], toPath path: String) throws {
        var name = Array(path.utf8)
        guard name.first == UInt8(ascii: "/") || name.first == UInt8(ascii: "@") else {
            throw SystemError(call: "datagram to \(path)", errno: Errno(rawValue: EAFNOSUPPORT), detail: "not a unix socket path")
        }
        if name[0] == UInt8(ascii: "@") { name[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard name.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemError(call: "datagram to \(path)", errno: .nameTooLong)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count)
        let fd = FileDescriptor(adopting: try Syscall.check("socket") {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        })
        _ = try Syscall.check("sendto \(path)") {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd.rawValue, bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, length)
                }
            }
        }
    }

    /// The sockaddr_un of `path`, for bind or connect (tests drive raw sockets with it). sun_path
    /// holds 108 bytes with its terminating zero.
    public static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) throws -> R {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else { throw SystemError(call: "socket path \(path)", errno: .nameTooLong) }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let len = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        return try withUnsafePointer(to: &addr) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, len) }
        }
    }

    public static func make(nonBlocking: Bool) throws -> FileDescriptor {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return FileDescriptor(adopting: try Syscall.check("socket") { socket(AF_UNIX, type, 0) })
    }

    /// A connected client socket (blocking), or the error (ENOENT, ECONNREFUSED, EACCES...).
    public static func connect(to path: String) throws -> FileDescriptor {
        let fd = try make(nonBlocking: false)
        try withAddress(path) { addr, len in
            _ = try Syscall.check("connect \(path)") { Glibc.connect(fd.rawValue, addr, len) }
        }
        return fd
    }

    /// A non-blocking listener at `path` with `mode` from the start (no window where others
    /// could connect: the umask is set for the bind, so call it from the one thread), owned by
    /// `group` if given. A file left at `path` is replaced.
    public static func listen(at path: String, mode: UInt32, group: UInt32? = nil, backlog: Int32 = 8) throws -> FileDescriptor {
        _ = Glibc.unlink(path)
        let fd = try make(nonBlocking: true)
        let old = umask(~mode_t(mode) & 0o777)
        defer { umask(old) }
        try withAddress(path) { addr, len in _ = try Syscall.check("bind \(path)") { bind(fd.rawValue, addr, len) } }
        try Syscall.check("chmod \(path)") { chmod(path, mode_t(mode)) }
        if let group { try Syscall.check("chown \(path)") { chown(path, uid_t.max, gid_t(group)) } }
        try Syscall.check("listen") { Glibc.listen(fd.rawValue, backlog) }
        return fd
    }
}
