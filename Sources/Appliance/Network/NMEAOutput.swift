import Drivers
import NMEA0183
import Posix
import WatchCore

/// NMEA 0183 out, on a TCP port and optionally as UDP broadcast: the anchor alarm and the GPS
/// faults as IEC 61162-1 alerts (ALF, ALC) and as legacy ALR. It watches the box as one of its
/// announcers (a decision only with its receipt) and sends only what its `AlertStream` says is due. Every send is
/// non-blocking: a client that can't keep up fills a bounded outbox and is dropped, never
/// waited for. What clients send is read in bounded lines; ACN and ACK are the only sentences
/// it acts on, and only when `acknowledge_snoozes` is set, through the box's decision path.
final class NMEAOutput: Pollable, BoxObserver, BoxServer {
    private final class Client {
        let socket: FileDescriptor
        /// The descriptor's number, the key in `clients` (kept after the socket closes).
        let fd: Int32
        var inbox: [UInt8] = []
        var outbox: [UInt8] = []
        let connectedAt: Instant
        /// Since when bytes have waited for this client (its kernel buffer full), or nil.
        var behindSince: Instant?
        init(_ socket: FileDescriptor, now: Instant) {
            self.socket = socket
            fd = socket.rawValue
            connectedAt = now
        }
    }

    let settings: NMEASettings
    /// Bytes queued for one client that does not read before it is dropped.
    var outboxLimit = 16 * 1024
    private var stream: AlertStream
    private let wall: () -> Double
    private var listener: FileDescriptor?
    private var clients: [Int32: Client] = [:]
    private var udp: FileDescriptor?
    private var udpTarget: SocketAddress?
    private var retryAt: Instant?
    private var problem: String?
    private var commands: [(AlertCommand, Client)] = []
    private(set) var droppedClients = 0
    /// Connections the kernel holds for the box to accept: a burst of plotters (a boat's
    /// network coming up) waits there rather than being turned away by the kernel.
    static let backlog: Int32 = 64
    /// The instant of the latest turn, for the clients' clocks.
    private var now: Instant
    /// Commands carried out a turn; an ACN past them is refused with ARC at once.
    static let commandsPerTurn = 16
    private(set) var sentences = 0
    /// The anchor as last sent as a waypoint (WPL), for plotters that read no alert sentence.
    private var waypoint: Coordinate?

    init(settings: NMEASettings, wall: @escaping () -> Double, now: Instant) {
        self.settings = settings
        self.wall = wall
        self.now = now
        stream = AlertStream(talker: settings.talker, repeatEvery: .seconds(settings.repeatEvery))
        open(now: now)
    }

    deinit { close() }

    var port: Int? { listener.flatMap { InetSocket.boundPort($0) } }
    var clientCount: Int { clients.count }

    private func open(now: Instant) {
        problem = nil
        if listener == nil {
            do {
                listener = try InetSocket.listen(host: settings.listen, port: settings.port, backlog: Self.backlog)
            } catch {
                problem = "can't listen on \(settings.listen):\(settings.port) (\(error))"
            }
        }
        if !settings.udpInterface.isEmpty {
            udpTarget = SocketAddress.broadcast(interface: settings.udpInterface, port: settings.udpPort)
            udp?.close()
            udp = nil
            if let udpTarget {
                do { udp = try InetSocket.udpSender(connectedTo: udpTarget) } catch {
                    if problem == nil { problem = "can't send UDP to \(udpTarget) (\(error))" }
                }
            }
            if udpTarget == nil, problem == nil { problem = "interface \(settings.udpInterface) has no IPv4 address" }
        }
        retryAt = problem == nil ? nil : now + .seconds(30)
    }

    func close() {
        for c in clients.values { c.socket.close() }
        clients.removeAll()
        listener?.close()
        listener = nil
        udp?.close()
        udp = nil
    }

    /// The Systems Check's row for this output.
    var row: SystemsCheck.Row {
        if let problem { return SystemsCheck.Row(.nmeaOut, .attention, "No: \(problem); trying again") }
        var where_ = "TCP port \(port ?? settings.port), \(clients.count) listening"
        if let udpTarget { where_ += "; UDP to \(udpTarget)" }
        // The systemd unit lets in only the addresses nmea.allow lists (`config --network-allow`).
        if NetworkAllow.nmeaLocalOnly(settings) {
            return SystemsCheck.Row(.nmeaOut, .attention, "Yes: \(where_); for this box only: nmea.allow is empty",
                                    remedy: "List the plotters' addresses in nmea.allow, e.g. \"192.168.1.0/24\", then restart the box")
        }
        return SystemsCheck.Row(.nmeaOut, .ok, "Yes: \(where_)")
    }

    // MARK: - BoxObserver

    func show(_ status: WatchStatus, now: Instant) {
        self.now = now
        var out = stream.update(BoxAlerts.alerts(from: status), now: now, wall: wall())
        // The mark goes out as WPL when it moves and with every alert list (on a change and
        // every repeat interval), so a plotter started later shows it too. A released mark is
        // not sent again: WPL has no way to take a waypoint back.
        if let anchor = status.anchor, anchor != waypoint || out.contains(where: Self.isAlertList) {
            out.append(Waypoint.wpl(talker: stream.talker, at: anchor))
        }
        waypoint = status.anchor
        if !out.isEmpty { broadcast(out) }
    }

    func nextDeadline(now: Instant) -> Instant? { stream.nextRepeat }

    // MARK: - Pollable

    func pollRequests() -> [PollRequest] {
        var out: [PollRequest] = []
        if let listener { out.append(PollRequest(fd: listener.rawValue, events: PollEvents.readable)) }
        for c in clients.values.sorted(by: { $0.fd < $1.fd }) {
            out.append(PollRequest(fd: c.fd, events: PollEvents.readable | (c.outbox.isEmpty ? 0 : PollEvents.writable)))
        }
        return out
    }

    func nextDeadline() -> Instant? {
        ([retryAt] + clients.values.map { $0.behindSince.map { $0 + behindLimit } }).compactMap { $0 }.min()
    }

    /// How long a client may leave sent bytes untaken: two repetitions, and at least 10 s.
    var behindLimit: Duration { .seconds(max(10, 2 * settings.repeatEvery)) }

    func service(ready: [PollRequest], now: Instant) -> [Event] {
        self.now = now
        if let retryAt, now >= retryAt { open(now: now) }
        // A client that has not taken what it was sent for `behindLimit` is gone or stuck:
        // dropped by time, however few the bytes (22 every 30 s would take hours to fill).
        for c in Array(clients.values) where c.behindSince.map({ now >= $0 + behindLimit }) ?? false { drop(c) }
        for r in ready {
            if r.fd == listener?.rawValue {
                accept(now: now)
            } else if let c = clients[r.fd] {
                if r.events & PollEvents.writable != 0 { flush(c) }
                if clients[r.fd] != nil, r.events & PollEvents.readableOrClosed != 0 { read(c) }
            }
        }
        return []
    }

    // MARK: - BoxServer

    /// Services the sockets and carries out the commands read, each through the box.
    func serve(_ ready: [PollRequest], now: Instant, box: Box) {
        _ = service(ready: ready, now: now)
        let todo = commands
        commands.removeAll()
        for (command, client) in todo { carryOut(command, from: client, now: now, box: box) }
    }

    private func carryOut(_ command: AlertCommand, from fd: Client, now: Instant, box: Box) {
        switch command {
        case .acn(let id, let instance, "Q"):
            // An alert that is not active has nothing to repeat: refused, as the docs say.
            let answer = stream.query(identifier: id, instance: instance)
            send(answer.isEmpty ? [stream.refusal(identifier: id, instance: instance, command: "Q", wall: wall())] : answer, to: fd)
        case .acn(BoxAlerts.anchorIdentifier, let instance, let cmd) where (cmd == "A" || cmd == "S") && settings.acknowledgeSnoozes:
            guard let episode = instance ?? stream.announcedEpisode else {
                return send([stream.refusal(identifier: BoxAlerts.anchorIdentifier, instance: instance, command: cmd, wall: wall())], to: fd)
            }
            // The same decision as `anchor-alert snooze`: it names its episode. Accepted, the
            // watch is snoozed at once and the ALF says so once the journal's receipt is in
            // (`Box.announcers`); refused or nothing to do, ARC.
            box.decide(.snooze(episode: episode), now: now) { [weak self, weak fd] reply in
                guard let self, let fd else { return }
                if case .receipt = reply { return }
                self.send([self.stream.refusal(identifier: BoxAlerts.anchorIdentifier, instance: instance, command: cmd,
                                               wall: self.wall())], to: fd)
            }
        case .acn(let id, let instance, let cmd):
            send([stream.refusal(identifier: id, instance: instance, command: cmd, wall: wall())], to: fd)
        case .ack(BoxAlerts.anchorAlarmNumber):
            // The legacy acknowledgement names no episode: it answers the episode the last
            // anchor ALR announced (Docs/network.md says what that means for a late ACK).
            guard settings.acknowledgeSnoozes, let episode = stream.announcedEpisode else { return }
            box.decide(.snooze(episode: episode), now: now) { _ in }
        case .ack:
            break
        }
    }

    static func isAlertList(_ line: String) -> Bool { line.utf8.dropFirst(3).starts(with: "ALC".utf8) }

    // MARK: - Sending

    private func broadcast(_ lines: [String]) {
        sentences += lines.count
        let bytes = Array(lines.joined().utf8)
        for c in Array(clients.values) { queue(bytes, to: c) }
        if let udp, let target = udpTarget {
            // One datagram per sentence, as IEC 61162-450 and plotters read them; a full
            // socket buffer loses a datagram, which UDP may do anyway.
            for line in lines {
                udp.sendDatagram(Array(line.utf8), to: target)
            }
        }
    }

    private func send(_ lines: [String], to c: Client) {
        guard clients[c.fd] === c, !lines.isEmpty else { return }
        sentences += lines.count
        queue(Array(lines.joined().utf8), to: c)
    }

    private func queue(_ bytes: [UInt8], to c: Client) {
        c.outbox += bytes
        if c.outbox.count > outboxLimit { return drop(c) }
        flush(c)
    }

    private func flush(_ c: Client) {
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

    // MARK: - Reading

    private func accept(now: Instant) {
        for _ in 0..<4 {
            guard let socket = try? listener?.accept() else { return }
            // A small kernel buffer too: a stuck plotter holds at most this plus the outbox.
            socket.setSendBuffer(16 * 1024)
            // Full: the new one takes the place of the client furthest behind (the most bytes
            // waiting), else the longest connected, so idle connections can't lock a new
            // plotter out; a plotter dropped that way reconnects.
            if clients.count >= settings.maxClients,
               let out = clients.values.max(by: { ($0.outbox.count, $1.connectedAt) < ($1.outbox.count, $0.connectedAt) }) {
                drop(out)
            }
            let c = Client(socket, now: now)
            clients[c.fd] = c
            // A new listener learns the present at once, not at the next repetition.
            var present = stream.repetition()
            if let waypoint { present.append(Waypoint.wpl(talker: stream.talker, at: waypoint)) }
            sentences += present.count
            queue(Array(present.joined().utf8), to: c)
        }
    }

    private func read(_ c: Client) {
        var buf = [UInt8](repeating: 0, count: 512)
        for _ in 0..<4 {
            let got: Int?
            do { got = try c.socket.receiveNow(into: &buf) } catch { return drop(c) }
            guard let n = got else { return }
            if n == 0 { return drop(c) }
            c.inbox += buf[0..<n]
            while let nl = c.inbox.firstIndex(of: 0x0A) {
                let line = Array(c.inbox[..<nl])
                c.inbox.removeFirst(nl + 1)
                guard case .success(let s) = Sentence.parse(line), let command = AlertCommand(s) else { continue }
                if commands.count < Self.commandsPerTurn {
                    commands.append((command, c))
                } else if case .acn(let id, let instance, let cmd) = command {
                    // Past a turn's share an ACN is still answered: refused, to be sent again.
                    send([stream.refusal(identifier: id, instance: instance, command: cmd, wall: wall())], to: c)
                }
            }
            // A line longer than any sentence is noise: forget it rather than buffer it.
            if c.inbox.count > Sentence.maxLength * 2 { c.inbox.removeAll() }
        }
    }

    private func drop(_ c: Client) {
        guard clients[c.fd] != nil else { return }
        clients[c.fd] = nil
        c.socket.close()
        droppedClients += 1
    }
}
