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
    let settings: NMEASettings
    /// Bytes queued for one client that does not read before it is dropped.
    var outboxLimit: Int {
        get { fanOut.outboxLimit }
        set { fanOut.outboxLimit = newValue }
    }
    private typealias Client = TCPFanOut.Client
    private var stream: AlertStream
    private let wall: () -> Double
    /// The plotters: a new one past `max_clients` takes the place of the one furthest behind,
    /// and one that leaves sent bytes untaken for `behindLimit` is dropped.
    private let fanOut: TCPFanOut
    private var udp: FileDescriptor?
    private var udpTarget: SocketAddress?
    private var retryAt: Instant?
    private var problem: String?
    private var commands: [(AlertCommand, Client)] = []
    var droppedClients: Int { fanOut.droppedClients }
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
        fanOut = TCPFanOut(maxClients: settings.maxClients, whenFull: .replaceFurthestBehind,
                           behindLimit: Self.behindLimit(repeatEvery: settings.repeatEvery))
        stream = AlertStream(talker: settings.talker, repeatEvery: .seconds(settings.repeatEvery))
        open(now: now)
    }

    deinit { close() }

    var port: Int? { fanOut.port }
    var clientCount: Int { fanOut.clientCount }

    private func open(now: Instant) {
        problem = nil
        if !fanOut.isListening {
            do {
                try fanOut.listen(host: settings.listen, port: settings.port, backlog: Self.backlog)
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
        fanOut.close()
        udp?.close()
        udp = nil
    }

    /// The Systems Check's row for this output.
    var row: SystemsCheck.Row {
        if let problem { return SystemsCheck.Row(.nmeaOut, .attention, "No: \(problem); trying again") }
        var where_ = "TCP port \(port ?? settings.port), \(fanOut.clientCount) listening"
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

    func pollRequests() -> [PollDescriptor] { fanOut.pollRequests() }

    func nextDeadline() -> Instant? {
        [retryAt, fanOut.nextDeadline()].compactMap { $0 }.min()
    }

    /// How long a client may leave sent bytes untaken: two repetitions, and at least 10 s.
    var behindLimit: Duration { Self.behindLimit(repeatEvery: settings.repeatEvery) }
    static func behindLimit(repeatEvery: Double) -> Duration { .seconds(max(10, 2 * repeatEvery)) }

    func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        self.now = now
        if let retryAt, now >= retryAt { open(now: now) }
        // A client that has not taken what it was sent for `behindLimit` is gone or stuck:
        // dropped by time, however few the bytes (22 every 30 s would take hours to fill).
        fanOut.service(ready: ready, now: now, greet: greet, received: read)
        return []
    }

    // MARK: - BoxServer

    /// Services the sockets and carries out the commands read, each through the box.
    func serve(_ ready: [PollDescriptor], now: Instant, box: Box) {
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
            // It answers the anchor alarm only while that episode rings: an alert already
            // snoozed is refused, never taken as a snooze of the fault sound (which is the GPS
            // and journal alerts' ACN).
            guard let episode = instance ?? stream.announcedEpisode, case .ringing(episode) = box.watch.alarm else {
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
        case .acn(let id, let instance?, let cmd) where (cmd == "A" || cmd == "S") && settings.acknowledgeSnoozes
                && stream.activeAlerts.contains(where: { $0.key == .init(identifier: id, instance: instance) && $0.state == .unacknowledged })
                && id != BoxAlerts.anchorIdentifier && box.watch.alarm.kind != .ringing:
            // A fault's alert still sounding: its sound snoozed for a while, as `anchor-alert
            // snooze` does with no alarm ringing (never the alarm: that is the anchor alert's).
            // The ALF says acknowledged once the fault sound is quiet; refused, ARC.
            box.decide(.snooze(episode: box.watch.alarm.episode ?? 0), now: now) { [weak self, weak fd] reply in
                guard let self, let fd else { return }
                if case .receipt = reply { return }
                self.send([self.stream.refusal(identifier: id, instance: instance, command: cmd, wall: self.wall())], to: fd)
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
        fanOut.broadcast(Array(lines.joined().utf8), now: now)
        if let udp, let target = udpTarget {
            // One datagram per sentence, as IEC 61162-450 and plotters read them; a full
            // socket buffer loses a datagram, which UDP may do anyway.
            for line in lines {
                udp.sendDatagram(Array(line.utf8), to: target)
            }
        }
    }

    private func send(_ lines: [String], to c: Client) {
        guard fanOut.isConnected(c), !lines.isEmpty else { return }
        sentences += lines.count
        fanOut.queue(Array(lines.joined().utf8), to: c, now: now)
    }

    // MARK: - Reading

    /// A new listener learns the present at once, not at the next repetition.
    private func greet(_ c: Client) {
        var present = stream.repetition()
        if let waypoint { present.append(Waypoint.wpl(talker: stream.talker, at: waypoint)) }
        sentences += present.count
        fanOut.queue(Array(present.joined().utf8), to: c, now: now)
    }

    /// A chunk read from a client: its complete lines parsed, ACN and ACK kept for the turn.
    private func read(_ c: Client, _ bytes: ArraySlice<UInt8>) -> Bool {
        c.inbox += bytes
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
        return true
    }
}
