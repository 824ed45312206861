#if canImport(Glibc)
import Glibc
#endif
import Drivers
import NMEA0183
import WatchCore

/// NMEA 0183 out, on a TCP port and optionally as UDP broadcast: the anchor alarm and the GPS
/// faults as IEC 61162-1 alerts (ALF, ALC) and as legacy ALR. It watches the box as one of its
/// announcers (a decision only with its receipt) and sends only what its `AlertStream` says is due. Every send is
/// non-blocking: a client that can't keep up fills a bounded outbox and is dropped, never
/// waited for. What clients send is read in bounded lines; ACN and ACK are the only sentences
/// it acts on, and only when `acknowledge_snoozes` is set, through the box's decision path.
final class NMEAOutput: Pollable, BoxObserver, DecisionServer {
    private final class Client {
        let fd: Int32
        var inbox: [UInt8] = []
        var outbox: [UInt8] = []
        init(fd: Int32) { self.fd = fd }
    }

    let settings: NMEASettings
    /// Bytes queued for one client that does not read before it is dropped.
    var outboxLimit = 16 * 1024
    private var stream: AlertStream
    private let wall: () -> Double
    private var listener: Int32 = -1
    private var clients: [Int32: Client] = [:]
    private var udp: Int32 = -1
    private var udpTarget: sockaddr_in?
    private var retryAt: Instant?
    private var problem: String?
    private var commands: [(AlertCommand, Client)] = []
    private(set) var droppedClients = 0
    private(set) var sentences = 0

    init(settings: NMEASettings, wall: @escaping () -> Double, now: Instant) {
        self.settings = settings
        self.wall = wall
        stream = AlertStream(talker: settings.talker, repeatEvery: .seconds(settings.repeatEvery))
        open(now: now)
    }

    deinit { close() }

    var port: Int? { listener >= 0 ? InetSocket.boundPort(listener) : nil }
    var clientCount: Int { clients.count }

    private func open(now: Instant) {
        problem = nil
        if listener < 0 {
            do {
                listener = try InetSocket.listen(host: settings.listen, port: settings.port)
            } catch {
                problem = "can't listen on \(settings.listen):\(settings.port) (\(error))"
            }
        }
        if !settings.udpInterface.isEmpty {
            if udp < 0 { udp = (try? InetSocket.udpSender()) ?? -1 }
            udpTarget = InetSocket.broadcastAddress(interface: settings.udpInterface, port: settings.udpPort)
            if udpTarget == nil, problem == nil { problem = "interface \(settings.udpInterface) has no IPv4 address" }
        }
        retryAt = problem == nil ? nil : now + .seconds(30)
    }

    func close() {
        for c in clients.values { Posix.close(c.fd) }
        clients.removeAll()
        if listener >= 0 { Posix.close(listener); listener = -1 }
        if udp >= 0 { Posix.close(udp); udp = -1 }
    }

    /// The Systems Check's row for this output.
    var row: SystemsCheck.Row {
        if let problem { return SystemsCheck.Row(.nmeaOut, .attention, "No: \(problem); trying again") }
        var where_ = "TCP port \(port ?? settings.port), \(clients.count) listening"
        if let udpTarget { where_ += "; UDP to \(InetSocket.describe(udpTarget))" }
        return SystemsCheck.Row(.nmeaOut, .ok, "Yes: \(where_)")
    }

    // MARK: - BoxObserver

    func show(_ status: WatchStatus, now: Instant) {
        let out = stream.update(BoxAlerts.alerts(from: status), now: now, wall: wall())
        if !out.isEmpty { broadcast(out) }
    }

    func nextDeadline(now: Instant) -> Instant? { stream.nextRepeat }

    // MARK: - Pollable

    func pollRequests() -> [PollRequest] {
        var out: [PollRequest] = []
        if listener >= 0 { out.append(PollRequest(fd: listener, events: Int16(POLLIN))) }
        for c in clients.values.sorted(by: { $0.fd < $1.fd }) {
            out.append(PollRequest(fd: c.fd, events: Int16(POLLIN) | (c.outbox.isEmpty ? 0 : Int16(POLLOUT))))
        }
        return out
    }

    func nextDeadline() -> Instant? { retryAt }

    func service(ready: [PollRequest], now: Instant) -> [Event] {
        if let retryAt, now >= retryAt { open(now: now) }
        for r in ready {
            if r.fd == listener {
                accept(now: now)
            } else if let c = clients[r.fd] {
                if r.events & Int16(POLLOUT) != 0 { flush(c) }
                if clients[r.fd] != nil, r.events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { read(c) }
            }
        }
        return []
    }

    // MARK: - DecisionServer

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
            send(stream.query(identifier: id, instance: instance), to: fd)
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

    // MARK: - Sending

    private func broadcast(_ lines: [String]) {
        sentences += lines.count
        let bytes = Array(lines.joined().utf8)
        for c in Array(clients.values) { queue(bytes, to: c) }
        if udp >= 0, let target = udpTarget {
            // One datagram per sentence, as IEC 61162-450 and plotters read them; a full
            // socket buffer loses a datagram, which UDP may do anyway.
            for line in lines {
                let b = Array(line.utf8)
                _ = InetSocket.withSockaddr(target) { a, len in
                    b.withUnsafeBytes { sendto(udp, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT), a, len) }
                }
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
        while !c.outbox.isEmpty {
            let n = c.outbox.withUnsafeBytes { Glibc.send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n > 0 {
                c.outbox.removeFirst(n)
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                return
            } else {
                return drop(c)
            }
        }
    }

    // MARK: - Reading

    private func accept(now: Instant) {
        for _ in 0..<4 {
            let fd = Glibc.accept(listener, nil, nil)
            if fd < 0 { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            // A small kernel buffer too: a stuck plotter holds at most this plus the outbox.
            var size: Int32 = 16 * 1024
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            guard clients.count < settings.maxClients else {
                Posix.close(fd)
                droppedClients += 1
                continue
            }
            let c = Client(fd: fd)
            clients[fd] = c
            // A new listener learns the present at once, not at the next repetition.
            let now = stream.repetition()
            sentences += now.count
            queue(Array(now.joined().utf8), to: c)
        }
    }

    private func read(_ c: Client) {
        var buf = [UInt8](repeating: 0, count: 512)
        for _ in 0..<4 {
            let n = buf.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 { return drop(c) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { drop(c) }
                return
            }
            c.inbox += buf[0..<n]
            while let nl = c.inbox.firstIndex(of: 0x0A) {
                let line = Array(c.inbox[..<nl])
                c.inbox.removeFirst(nl + 1)
                if case .success(let s) = Sentence.parse(line), let command = AlertCommand(s) {
                    commands.append((command, c))
                }
            }
            // A line longer than any sentence is noise: forget it rather than buffer it.
            if c.inbox.count > Sentence.maxLength * 2 { c.inbox.removeAll() }
            if commands.count > 16 { commands.removeFirst(commands.count - 16) }
        }
    }

    private func drop(_ c: Client) {
        guard clients[c.fd] != nil else { return }
        clients[c.fd] = nil
        Posix.close(c.fd)
        droppedClients += 1
    }
}
