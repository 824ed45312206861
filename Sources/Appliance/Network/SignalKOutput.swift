import Drivers
import Posix
import WatchCore

/// Signal K deltas on a TCP port (`[signalk]`, Docs/network.md): a Signal K server's
/// "Signal K" data connection of type TCP connects here and reads one delta a line. An
/// announcer like the other outputs (a decision only with its receipt). Every send is
/// non-blocking: a client that can't keep up fills a bounded outbox and is dropped. Nothing
/// read from a client is acted on; it is read only to notice the client leaving.
final class SignalKOutput: Pollable, BoxObserver {
    private final class Client {
        let socket: FileDescriptor
        let fd: Int32
        var outbox: [UInt8] = []
        var received = 0
        init(_ socket: FileDescriptor) {
            self.socket = socket
            fd = socket.rawValue
        }
    }

    let settings: SignalKSettings
    var outboxLimit = 16 * 1024
    private let wall: () -> Double
    private var listener: FileDescriptor?
    private var clients: [Int32: Client] = [:]
    private var retryAt: Instant?
    private var problem: String?
    /// What the last line with notifications said, and the mark and radius it carried.
    private var said: (anchor: SignalKDelta.Notification, gnss: SignalKDelta.Notification, mark: Coordinate?, radius: Meters)?
    private var lastStatus: WatchStatus?
    private var lastLineAt: Instant?
    private var lastDistance: Meters?
    private(set) var lines = 0
    private(set) var droppedClients = 0
    /// The distance goes out at most this often (every fix of a 10 Hz receiver would be noise).
    static let distanceEvery: Duration = .seconds(1)
    /// A server's data connection sends nothing; a client that sends more than this is not one,
    /// and is dropped rather than read turn after turn.
    static let inputLimit = 4096

    init(settings: SignalKSettings, wall: @escaping () -> Double, now: Instant) {
        self.settings = settings
        self.wall = wall
        open(now: now)
    }

    deinit { close() }

    var port: Int? { listener.flatMap { InetSocket.boundPort($0) } }
    var clientCount: Int { clients.count }

    private func open(now: Instant) {
        do {
            listener = try InetSocket.listen(host: settings.listen, port: settings.port)
            problem = nil
            retryAt = nil
        } catch {
            problem = "can't listen on \(settings.listen):\(settings.port) (\(error))"
            retryAt = now + .seconds(30)
        }
    }

    func close() {
        for c in clients.values { c.socket.close() }
        clients.removeAll()
        listener?.close()
        listener = nil
    }

    var row: SystemsCheck.Row {
        if let problem { return SystemsCheck.Row(.signalK, .attention, "No: \(problem); trying again") }
        return SystemsCheck.Row(.signalK, .ok, "Yes: TCP port \(port ?? settings.port), \(clients.count) listening")
    }

    // MARK: - BoxObserver

    func show(_ status: WatchStatus, now: Instant) {
        lastStatus = status
        let anchor = SignalKDelta.anchor(status, now: now)
        let gnss = SignalKDelta.gnss(status)
        // A change of state, of the mark, the radius or a fault goes out at once; a message
        // that only moves with the distance ("Dragging: 62 m ...") rides with the distance.
        let changed = said.map {
            $0.anchor.state != anchor.state || $0.anchor.method != anchor.method || $0.gnss != gnss
                || $0.mark != status.anchor || $0.radius != status.radius
        } ?? true
        let due = lastLineAt.map { now >= $0 + Self.distanceEvery } ?? true
        if changed {
            said = (anchor, gnss, status.anchor, status.radius)
            send(SignalKDelta.line(status, now: now, wall: wall(), notifications: true), now: now)
        } else if due, status.anchor != nil, status.distance != lastDistance || said?.anchor != anchor {
            let words = said?.anchor != anchor
            said?.anchor = anchor
            send(SignalKDelta.line(status, now: now, wall: wall(), notifications: words), now: now)
        }
    }

    func nextDeadline(now: Instant) -> Instant? { nil }

    private func send(_ line: String, now: Instant) {
        lastLineAt = now
        lastDistance = lastStatus?.distance
        guard !clients.isEmpty else { return }
        lines += 1
        let bytes = Array(line.utf8)
        for c in Array(clients.values) { queue(bytes, to: c) }
    }

    // MARK: - Pollable

    func pollRequests() -> [PollRequest] {
        var out: [PollRequest] = []
        if let listener { out.append(PollRequest(fd: listener.rawValue, events: PollEvents.readable)) }
        for c in clients.values.sorted(by: { $0.fd < $1.fd }) {
            out.append(PollRequest(fd: c.fd, events: PollEvents.readable | (c.outbox.isEmpty ? 0 : PollEvents.writable)))
        }
        return out
    }

    func nextDeadline() -> Instant? { retryAt }

    func service(ready: [PollRequest], now: Instant) -> [Event] {
        if let retryAt, now >= retryAt { open(now: now) }
        for r in ready {
            if r.fd == listener?.rawValue {
                accept(now: now)
            } else if let c = clients[r.fd] {
                if r.events & PollEvents.writable != 0 { flush(c) }
                if clients[r.fd] != nil, r.events & PollEvents.readableOrClosed != 0 { discardInput(c) }
            }
        }
        return []
    }

    private func accept(now: Instant) {
        for _ in 0..<4 {
            guard let socket = try? listener?.accept() else { return }
            socket.setSendBuffer(16 * 1024)
            guard clients.count < settings.maxClients else {
                socket.close()
                droppedClients += 1
                continue
            }
            let c = Client(socket)
            clients[c.fd] = c
            // A server that connects in the night learns the present at once.
            if let status = lastStatus {
                lines += 1
                queue(Array(SignalKDelta.line(status, now: now, wall: wall(), notifications: true).utf8), to: c)
            }
        }
    }

    private func discardInput(_ c: Client) {
        var buf = [UInt8](repeating: 0, count: 512)
        for _ in 0..<4 {
            let got: Int?
            do { got = try c.socket.receiveNow(into: &buf) } catch { return drop(c) }
            guard let n = got else { return }
            c.received += n
            if n == 0 || c.received > Self.inputLimit { return drop(c) }
        }
    }

    private func queue(_ bytes: [UInt8], to c: Client) {
        c.outbox += bytes
        if c.outbox.count > outboxLimit { return drop(c) }
        flush(c)
    }

    private func flush(_ c: Client) {
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

    private func drop(_ c: Client) {
        guard clients[c.fd] != nil else { return }
        clients[c.fd] = nil
        c.socket.close()
        droppedClients += 1
    }
}
