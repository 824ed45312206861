import Drivers
import Posix
import WatchCore

/// The TCP side the NMEA 0183 and Signal K outputs share: one listening socket, its clients,
/// the same bytes queued to each. Every send is non-blocking: a client that can't keep up fills
/// a bounded outbox and is dropped, never waited for; with `behindLimit` set, one that leaves
/// sent bytes untaken that long is dropped too, however few the bytes. What a client sends is
/// read in bounded chunks and handed to the owner, which says whether the client may stay.
/// The owner opens the listener, decides what goes out and forwards its `Pollable` calls here.
final class TCPFanOut {
    final class Client {
        let socket: FileDescriptor
        /// The descriptor's number, the key in `clients` (kept after the socket closes).
        let fd: Int32
        let connectedAt: Instant
        var outbox: [UInt8] = []
        /// Since when bytes have waited for this client (its kernel buffer full), or nil.
        var behindSince: Instant?
        /// Bytes read from it so far.
        var received = 0
        /// What the owner keeps of what it read (a partial line).
        var inbox: [UInt8] = []
        init(_ socket: FileDescriptor, now: Instant) {
            self.socket = socket
            fd = socket.rawValue
            connectedAt = now
        }
    }

    /// A new client when `maxClients` are connected.
    enum WhenFull {
        /// Turned away: the clients there keep their places.
        case refuseNew
        /// Takes the place of the client furthest behind (the most bytes waiting), else the
        /// longest connected, so idle connections can't lock a new one out.
        case replaceFurthestBehind
    }

    let maxClients: Int
    let whenFull: WhenFull
    /// How long a client may leave sent bytes untaken before it is dropped; nil: only a full
    /// outbox drops it.
    let behindLimit: Duration?
    /// Bytes queued for one client that does not read before it is dropped.
    var outboxLimit = 16 * 1024
    /// The kernel's send buffer for each client: a stuck client holds at most this plus the outbox.
    static let sendBuffer: Int32 = 16 * 1024
    /// Connections accepted a turn, and chunks of 512 bytes read from one client a turn.
    static let acceptsPerTurn = 4
    static let readsPerTurn = 4
    private(set) var listener: FileDescriptor?
    private(set) var clients: [Int32: Client] = [:]
    private(set) var droppedClients = 0

    init(maxClients: Int, whenFull: WhenFull, behindLimit: Duration?) {
        self.maxClients = maxClients
        self.whenFull = whenFull
        self.behindLimit = behindLimit
    }

    deinit { close() }

    var isListening: Bool { listener != nil }
    var port: Int? { listener.flatMap { InetSocket.boundPort($0) } }
    var clientCount: Int { clients.count }
    var isEmpty: Bool { clients.isEmpty }

    func listen(host: String, port: Int, backlog: Int32) throws {
        listener = try InetSocket.listen(host: host, port: port, backlog: backlog)
    }

    func close() {
        for c in clients.values { c.socket.close() }
        clients.removeAll()
        listener?.close()
        listener = nil
    }

    func isConnected(_ c: Client) -> Bool { clients[c.fd] === c }

    // MARK: - Pollable, forwarded by the owner

    func pollRequests() -> [PollDescriptor] {
        var out: [PollDescriptor] = []
        if let listener { out.append(PollDescriptor(fd: listener.rawValue, wanted: PollEvents.readable)) }
        for c in clients.values.sorted(by: { $0.fd < $1.fd }) {
            out.append(PollDescriptor(fd: c.fd, wanted: PollEvents.readable | (c.outbox.isEmpty ? 0 : PollEvents.writable)))
        }
        return out
    }

    /// The earliest instant a client falls `behindLimit` behind.
    func nextDeadline() -> Instant? {
        guard let behindLimit else { return nil }
        return clients.values.compactMap { $0.behindSince.map { $0 + behindLimit } }.min()
    }

    /// Drops the clients past `behindLimit`, accepts, flushes and reads. `greet` is called for
    /// each new client (to queue it the present); `received` with each chunk read from a
    /// client, and the client is dropped when it returns false.
    func service(ready: [PollDescriptor], now: Instant, greet: (Client) -> Void,
                 received: (Client, ArraySlice<UInt8>) -> Bool) {
        if let behindLimit {
            // A client that has not taken what it was sent for `behindLimit` is gone or stuck.
            for c in Array(clients.values) where c.behindSince.map({ now >= $0 + behindLimit }) ?? false { drop(c) }
        }
        for r in ready {
            if r.fd == listener?.rawValue {
                accept(now: now, greet: greet)
            } else if let c = clients[r.fd] {
                if r.happened(PollEvents.writable) { flush(c, now: now) }
                if isConnected(c), r.happened(PollEvents.readableOrClosed) { read(c, received: received) }
            }
        }
    }

    // MARK: - Sending

    /// The same bytes to every client.
    func broadcast(_ bytes: [UInt8], now: Instant) {
        for c in Array(clients.values) { queue(bytes, to: c, now: now) }
    }

    func queue(_ bytes: [UInt8], to c: Client, now: Instant) {
        guard isConnected(c) else { return }
        c.outbox += bytes
        if c.outbox.count > outboxLimit { return drop(c) }
        flush(c, now: now)
    }

    private func flush(_ c: Client, now: Instant) {
        defer { c.behindSince = c.outbox.isEmpty ? nil : (c.behindSince ?? now) }
        while !c.outbox.isEmpty {
            do {
                guard let n = try c.socket.sendNow(c.outbox) else { return }
                guard n > 0 else { return drop(c) }
                c.outbox.removeFirst(n)
            } catch {
                return drop(c)
            }
        }
    }

    // MARK: - Accepting and reading

    private func accept(now: Instant, greet: (Client) -> Void) {
        for _ in 0..<Self.acceptsPerTurn {
            guard let socket = try? listener?.accept() else { return }
            socket.setSendBuffer(Self.sendBuffer)
            if clients.count >= maxClients {
                switch whenFull {
                case .refuseNew:
                    socket.close()
                    droppedClients += 1
                    continue
                case .replaceFurthestBehind:
                    if let out = clients.values.max(by: { ($0.outbox.count, $1.connectedAt) < ($1.outbox.count, $0.connectedAt) }) {
                        drop(out)
                    }
                }
            }
            let c = Client(socket, now: now)
            clients[c.fd] = c
            greet(c)
        }
    }

    private func read(_ c: Client, received: (Client, ArraySlice<UInt8>) -> Bool) {
        var buf = [UInt8](repeating: 0, count: 512)
        for _ in 0..<Self.readsPerTurn {
            let got: Int?
            do { got = try c.socket.receiveNow(into: &buf) } catch { return drop(c) }
            guard let n = got else { return }
            if n == 0 { return drop(c) }
            c.received += n
            if !received(c, buf[0..<n]) { return drop(c) }
            // The owner's answer may have dropped it (its outbox full).
            guard isConnected(c) else { return }
        }
    }

    private func drop(_ c: Client) {
        guard isConnected(c) else { return }
        clients[c.fd] = nil
        c.socket.close()
        droppedClients += 1
    }
}
