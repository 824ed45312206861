import Glibc

/// A non-blocking TCP connect to gpsd's address, offered to the loop's poll: a blocking
/// connect() to an unreachable host would stall the loop for the kernel's SYN timeout
/// (minutes). Once the address accepts, the connected socket itself is handed to
/// `GPSDConnection` (`takeSocket`): the box opens no second connection.
public final class TCPConnectProbe {
    public enum Outcome: Equatable {
        case inProgress
        /// Accepted: `takeSocket` hands over the connected socket.
        case connected
        case failed(SystemError)
    }

    /// One IPv4 or IPv6 address with its port, as the resolver gave it.
    public struct Address: Sendable {
        fileprivate var storage: sockaddr_storage
    }

    public private(set) var fd: Int32 = -1
    private var address = sockaddr_storage()
    private var length = socklen_t(0)

    /// The addresses `host` stands for, without asking a resolver: the loop never waits on a name
    /// lookup (glibc's getaddrinfo for a name can wait seconds on DNS). A numeric address, or
    /// "localhost" as both loopback addresses; any other name is nil, and the box says to use
    /// an address.
    public static func resolve(host: String, port: UInt16) -> [Address]? {
        if host == "localhost" {
            let both = (resolveNumeric("127.0.0.1", port: port) ?? []) + (resolveNumeric("::1", port: port) ?? [])
            return both.isEmpty ? nil : both
        }
        return resolveNumeric(host, port: port)
    }

    private static func resolveNumeric(_ host: String, port: UInt16) -> [Address]? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var out: [Address] = []
        var p: UnsafeMutablePointer<addrinfo>? = first
        while let ai = p {
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { dst in
                dst.copyMemory(from: UnsafeRawBufferPointer(start: ai.pointee.ai_addr, count: Int(ai.pointee.ai_addrlen)))
            }
            out.append(Address(storage: storage))
            p = ai.pointee.ai_next
        }
        return out.isEmpty ? nil : out
    }

    public init(address candidate: Address) {
        let address = candidate.storage
        self.address = address
        self.length = socklen_t(address.ss_family == sa_family_t(AF_INET6)
            ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    }

    deinit { close() }

    /// Starts the connect. Loopback often answers at once (connected or refused).
    public func start() -> Outcome {
        do {
            fd = try Syscall.check("socket") {
                socket(Int32(address.ss_family), Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            }
        } catch {
            return .failed(error as! SystemError)
        }
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        if r == 0 { return .connected }
        switch Glibc.errno {
        // EINTR on a non-blocking connect: the connection still proceeds asynchronously.
        case EINPROGRESS, EINTR: return .inProgress
        case let e: return .failed(SystemError(call: "connect", errno: Errno(rawValue: e)))
        }
    }

    /// Called when poll says the socket is writable or failed.
    public func finish() -> Outcome {
        var err: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        do {
            _ = try Syscall.check("getsockopt") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) }
        } catch {
            return .failed(error as! SystemError)
        }
        if err == EINPROGRESS || err == EALREADY { return .inProgress }
        if err != 0 { return .failed(SystemError(call: "connect", errno: Errno(rawValue: err))) }
        return .connected
    }

    /// The connected socket, handed over (`GPSDConnection.adopt`): the probe no longer owns it.
    public func takeSocket() -> Int32 {
        let s = fd
        fd = -1
        return s
    }

    /// Closes the probe socket. Never retried on EINTR: on Linux the descriptor is gone anyway.
    public func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }
}
