import Drivers
import Posix
import WatchCore

/// The box's end of the control socket: a Unix stream socket beside the snapshot (mode 0660,
/// owner and group only; no network listener anywhere). It accepts clients without blocking,
/// reads bounded lines, refuses what it can't parse at once, and hands each decision to the
/// loop with a `Ticket`. The loop answers through `reply(to:_:)`:
///
/// - a receipt only after the journal has made the decision durable (`ControlReply.receipt`),
/// - a refusal at once (`ControlReply.refused`).
///
/// A client that goes away before its answer changes nothing: the decision stands, and the
/// reply to its ticket is dropped.
final class ControlServer: Pollable {
    /// Names one request of one connection. Connection numbers are never reused, so a reply
    /// can never reach a later client that happens to get the same descriptor.
    struct Ticket: Hashable, Sendable, CustomStringConvertible {
        var connection: UInt64
        var request: String
        var description: String { "\(connection)/\(request)" }
    }

    struct Request: Hashable, Sendable {
        var ticket: Ticket
        var decision: Decision
        var event: Event { .decision(decision) }
    }

    struct Limits {
        var clients = 16
        /// Requests one client may have waiting for their answer.
        var pendingPerClient = 4
        /// A connection with nothing pending and nothing said for this long is closed.
        var idle: Duration = .seconds(30)
        /// Bytes of replies queued for a client that does not read; past it, it is dropped.
        var outbox = 64 * 1024
        /// Reads per client per turn, so one chatty client can't hold the loop.
        var readsPerTurn = 4
    }

    private final class Client {
        let socket: FileDescriptor
        /// The descriptor's number, the key in `clients` (kept after the socket closes).
        let fd: Int32
        let number: UInt64
        var inbox: [UInt8] = []
        var outbox: [UInt8] = []
        var pending: Set<String> = []
        var lastActive: Instant
        var peerDone = false
        var closing = false
        var nextRequest = 1

        init(_ socket: FileDescriptor, number: UInt64, now: Instant) {
            self.socket = socket
            self.fd = socket.rawValue
            self.number = number
            self.lastActive = now
        }
    }

    let path: String
    let limits: Limits
    private var listener: FileDescriptor?
    private var clients: [Int32: Client] = [:]
    private var nextConnection: UInt64 = 1
    /// The ticket of each event returned by the last `service` call, in the same order.
    private(set) var lastTickets: [Ticket] = []

    /// Creates the socket. A socket file left by an earlier run is replaced; a live one (a box
    /// already running) is an error, EADDRINUSE. `group`, if given, owns the socket.
    init(directory: String = SnapshotFile.defaultDirectory, group: UInt32? = nil, limits: Limits = Limits()) throws {
        let path = ControlProtocol.socketPath(directory)
        self.path = path
        self.limits = limits
        try Files.makeDirectories(directory, mode: 0o755)
        if let probe = try? UnixSocket.connect(to: path) {
            probe.close()
            throw SystemError(call: "bind \(path) (another box answers there)", errno: .addressInUse)
        }
        // Mode 0660 from the start: owner and group only.
        listener = try UnixSocket.listen(at: path, mode: 0o660, group: group)
    }

    deinit { close() }

    /// Closes every connection and removes the socket file.
    func close() {
        for c in clients.values { c.socket.close() }
        clients.removeAll()
        if let listener {
            listener.close()
            self.listener = nil
            try? Files.unlink(path)
        }
    }

    var connectionCount: Int { clients.count }

    // MARK: - Pollable

    func pollRequests() -> [PollDescriptor] {
        guard let listener else { return [] }
        var out = [PollDescriptor(fd: listener.rawValue, wanted: PollEvents.readable)]
        // No clients is the usual turn: nothing to sort.
        if clients.isEmpty { return out }
        for c in clients.values.sorted(by: { $0.number < $1.number }) {
            var ev: Int16 = c.peerDone ? 0 : PollEvents.readable
            if !c.outbox.isEmpty { ev |= PollEvents.writable }
            out.append(PollDescriptor(fd: c.fd, wanted: ev))
        }
        return out
    }

    func nextDeadline() -> Instant? {
        if clients.isEmpty { return nil }
        return clients.values.filter { $0.pending.isEmpty }.map { $0.lastActive + limits.idle }.min()
    }

    /// The decisions read this turn as `.decision` events; `lastTickets[i]` names the request of
    /// event `i`. Loops that want both at once call `serviceRequests`.
    func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        let requests = serviceRequests(ready: ready, now: now)
        lastTickets = requests.map(\.ticket)
        return requests.map(\.event)
    }

    func serviceRequests(ready: [PollDescriptor], now: Instant) -> [Request] {
        var out: [Request] = []
        for r in ready {
            if r.fd == listener?.rawValue {
                acceptClients(now: now)
            } else if let c = clients[r.fd] {
                if r.happened(PollEvents.writable) { flush(c) }
                if r.happened(PollEvents.readableOrClosed) { read(c, now: now, into: &out) }
            }
        }
        closeIdle(now: now)
        return out
    }

    // MARK: - Replies

    /// Answers one request. Does nothing if the client has gone (the decision still stands).
    func reply(to ticket: Ticket, _ reply: ControlReply) {
        guard let c = clients.values.first(where: { $0.number == ticket.connection }) else { return }
        c.pending.remove(ticket.request)
        send(reply.json(id: ticket.request), to: c)
        if c.peerDone && c.pending.isEmpty && c.outbox.isEmpty { drop(c) }
    }

    /// Queues a reply and tries to send it now. A client marked `closing` still gets this
    /// last reply (the refusal that says why), then is dropped once it is out.
    private func send(_ json: JSON, to c: Client) {
        guard clients[c.fd] === c else { return }
        c.outbox += Array((json.text + "\n").utf8)
        guard c.outbox.count <= limits.outbox else { return drop(c) }
        flush(c)
    }

    private func flush(_ c: Client) {
        while !c.outbox.isEmpty {
            do {
                guard let n = try c.socket.sendNow(c.outbox) else { return }
                c.outbox.removeFirst(n)
            } catch {
                return drop(c)
            }
        }
        if c.closing || (c.peerDone && c.pending.isEmpty) { drop(c) }
    }

    // MARK: - Reading

    private func acceptClients(now: Instant) {
        for _ in 0..<8 {
            // nil: none left; an error: try again next turn.
            guard let socket = try? listener?.accept() else { return }
            let fd = socket.rawValue
            let c = Client(socket, number: nextConnection, now: now)
            nextConnection += 1
            if clients.count >= limits.clients {
                c.closing = true
                clients[fd] = c
                send(ControlReply.error(code: "busy", says: "Request refused: too many clients, try again").json(id: nil), to: c)
                if clients[fd] != nil { drop(c) }
                continue
            }
            clients[fd] = c
        }
    }

    private func read(_ c: Client, now: Instant, into out: inout [Request]) {
        var buf = [UInt8](repeating: 0, count: 2048)
        for _ in 0..<limits.readsPerTurn {
            let got: Int?
            do { got = try c.socket.receiveNow(into: &buf) } catch { return drop(c) }
            guard let n = got else { break }
            if n == 0 {
                c.peerDone = true
                break
            }
            c.lastActive = now
            c.inbox += buf[0..<n]
            takeLines(c, into: &out)
            if clients[c.fd] == nil || c.closing { return }
        }
        if c.peerDone {
            // A request without its newline before the client's end still counts.
            if !c.inbox.isEmpty { c.inbox.append(0x0A); takeLines(c, into: &out) }
            if c.pending.isEmpty && c.outbox.isEmpty { drop(c) }
        }
    }

    private func takeLines(_ c: Client, into out: inout [Request]) {
        while let nl = c.inbox.firstIndex(of: 0x0A) {
            var line = Array(c.inbox[..<nl])
            c.inbox.removeFirst(nl + 1)
            if line.last == 0x0D { line.removeLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            handle(line, from: c, into: &out)
            if c.closing { return }
        }
        // No newline within the limit: the rest of this line can't be trusted to end; refuse
        // and hang up rather than buffer without bound.
        if c.inbox.count > ControlProtocol.maxLine {
            c.inbox.removeAll()
            c.closing = true
            send(ControlReply.error(code: ControlProtocol.RequestError.tooLong.code,
                                    says: ControlProtocol.RequestError.tooLong.says).json(id: nil), to: c)
        }
    }

    private func handle(_ line: [UInt8], from c: Client, into out: inout [Request]) {
        let (givenID, result) = ControlProtocol.parse(line)
        let id: String
        if let givenID {
            id = givenID
        } else {
            id = "#\(c.nextRequest)"
            c.nextRequest += 1
        }
        switch result {
        case .failure(let e):
            send(ControlReply.error(code: e.code, says: e.says).json(id: givenID), to: c)
        case .success(let decision):
            guard !c.pending.contains(id) else {
                return send(ControlReply.error(code: "duplicate_id", says: "Request refused: that id is still waiting for its answer").json(id: id), to: c)
            }
            guard c.pending.count < limits.pendingPerClient else {
                return send(ControlReply.error(code: "busy", says: "Request refused: wait for the answers already asked for").json(id: id), to: c)
            }
            c.pending.insert(id)
            out.append(Request(ticket: Ticket(connection: c.number, request: id), decision: decision))
        }
    }

    private func closeIdle(now: Instant) {
        for c in clients.values where c.pending.isEmpty && now >= c.lastActive + limits.idle {
            drop(c)
        }
    }

    private func drop(_ c: Client) {
        guard clients[c.fd] != nil else { return }
        clients[c.fd] = nil
        c.socket.close()
    }
}
