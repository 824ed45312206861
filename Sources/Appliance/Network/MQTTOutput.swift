import Posix
import Drivers
import Recordings
import WatchCore

/// The box on an MQTT broker, through libmosquitto with no thread of its own: its socket
/// joins the one poll, and reads, writes and keepalives happen when poll or the timer says.
/// Retained topics carry the latest snapshot (the same JSON as `status --json`'s status) and
/// its parts; the last will says "offline". While the broker is away, or while libmosquitto
/// still has unsent bytes, only the latest payload of each topic is kept, never a queue.
final class MQTTOutput: Pollable, BoxObserver, BoxServer {
    let settings: MQTTSettings
    let boxName: String
    let base: String
    let client: MQTTClient?
    private let interval: Duration
    /// Builds the snapshot of the status the box announces (`Box.announcers`).
    private let snapshot: SnapshotWriter?
    /// The latest payload of each topic, sent or waiting for the broker.
    private(set) var latest: [String: [UInt8]] = [:]
    private var dirty: Set<String> = []
    private var lastKey: SnapshotWriter.ChangeKey?
    private var lastPublish: Instant?
    private var retryAt: Instant?
    private var backoff: Duration = .seconds(1)
    private var connectingSince: Instant?
    private var miscAt: Instant?
    private var commands: [[UInt8]] = []
    private(set) var problem: String?
    /// This run's identity on `<base>/identity`, retained: a box that finds another's there
    /// after it has published its own was taken over by a second box of its name.
    let identity = String(UInt64.random(in: .min ... .max), radix: 16)
    /// Until then a fresh connection publishes nothing: it waits for the retained identity.
    private var confirmingUntil: Instant?
    /// This run has published its identity (on some earlier connection, or this one).
    private var announcedIdentity = false
    /// Another box took this name: the box has left the broker and stays off it.
    private(set) var takenOver = false
    /// The broker's answer when it refused this connection attempt (bad password...).
    private var refusal: String?
    private(set) var connections = 0
    private(set) var published = 0
    private var now: Instant = .zero
    /// The largest packet the broker may send the box (MQTT 5 Maximum Packet Size): a request
    /// of `ControlProtocol.maxLine` with its topic and headers fits, so a longer one up to this
    /// size is still answered `too_long`; anything larger the broker drops for the box.
    static let maxIncomingPacket: UInt32 = 4096
    /// Requests carried out a turn; more in the same turn are answered `busy`.
    static let commandsPerTurn = 8
    /// The alert radius's bounds, for Home Assistant's radius control.
    var radiusRange = WatchSettings().radiusRange
    /// The alarm episode the box last announced here, for Home Assistant's snooze button.
    private var announcedEpisode: Int?
    private var snoozePressed = false

    init(settings: MQTTSettings, boxName: String, interval: Duration, now: Instant, snapshot: SnapshotWriter?) {
        self.settings = settings
        self.boxName = boxName
        self.base = "\(settings.prefix)/\(boxName)"
        self.interval = interval
        self.snapshot = snapshot
        var credentials = MQTTClient.Credentials()
        credentials.username = settings.username
        if !settings.passwordFile.isEmpty {
            credentials.password = Files.readText(settings.passwordFile)?.withoutSpace ?? ""
        }
        credentials.caFile = settings.caFile
        credentials.certFile = settings.certFile
        credentials.keyFile = settings.keyFile
        client = MQTTClient(id: "anchor-alert-\(boxName)", credentials: credentials, maxIncoming: Self.maxIncomingPacket)
        guard let client else {
            // Say which file, when one of them is what libmosquitto refused.
            let unreadable = [("ca_file", settings.caFile), ("cert_file", settings.certFile), ("key_file", settings.keyFile)]
                .first { !$0.1.isEmpty && !Files.isReadable($0.1) }
                .map { "can't read mqtt.\($0.0) \($0.1) (\(Errno.current))" }
            problem = MQTTClient.unavailable.map { "\($0); install the libmosquitto1 package, then restart the box" }
                ?? unreadable ?? "can't set up the MQTT client (check mqtt.ca_file, cert_file and key_file)"
            return
        }
        client.will(topic: "\(base)/online", payload: "offline", retain: true)
        client.onConnect = { [unowned self] rc in self.connected(rc) }
        client.onDisconnect = { [unowned self] _ in self.lost("the broker closed the connection") }
        client.onMessage = { [unowned self] topic, payload in
            if topic == "\(self.base)/identity" { return self.identityHeard(payload) }
            if topic == self.homeAssistant.snoozeTopic { self.snoozePressed = true }
            guard topic == "\(self.base)/command" else { return }
            if self.commands.count < Self.commandsPerTurn { return self.commands.append(payload) }
            // Past a turn's share every request is still answered, at once and without
            // reaching the watch: the sender asks again.
            let (id, _) = ControlProtocol.parse(payload)
            self.reply(.error(code: "busy", says: "Request refused: too many requests at once, try again"), id: id)
        }
        if settings.passwordFile.isEmpty == false && credentials.password.isEmpty {
            problem = "can't read the password file \(settings.passwordFile)"
        }
        start(now: now)
    }

    private func start(now: Instant) {
        guard let client, !takenOver else { return }
        refusal = nil
        let err = connections == 0 && connectingSince == nil && retryAt == nil
            ? client.connect(host: settings.broker, port: settings.port, keepalive: settings.keepalive)
            : client.reconnect()
        if let err {
            lost("can't reach \(settings.broker):\(settings.port) (\(err))")
        } else {
            connectingSince = now
            retryAt = nil
        }
    }

    private func connected(_ rc: Int32) {
        connectingSince = nil
        guard rc == 0 else {
            refusal = "the broker refused the connection: \(MQTTClient.describeConnack(rc))"
            return lost(refusal!)
        }
        connections += 1
        problem = nil
        backoff = .seconds(1)
        miscAt = now + .seconds(Double(settings.keepalive) / 2)
        // With commands off the one topic read is the box's identity (a packet of at most
        // `maxIncomingPacket`); the retained one arrives right after the subscription.
        client?.subscribe("\(base)/identity", qos: 1)
        if settings.acceptCommands { client?.subscribe("\(base)/command", qos: 1) }
        if settings.acceptCommands, settings.discovery { client?.subscribe(homeAssistant.snoozeTopic, qos: 1) }
        confirmingUntil = now + Self.identityWait
    }

    /// How long a fresh connection waits for the retained identity before taking the name.
    static let identityWait: Duration = .seconds(2)

    /// The retained identity, or one published since. Another box's, once this run has
    /// published its own: two boxes share the name and take the broker's session from each
    /// other. This one leaves, publishing nothing, so the other's topics stay as they are.
    private func identityHeard(_ payload: [UInt8]) {
        let theirs = String(decoding: payload.prefix(64), as: UTF8.self)
        if theirs == identity || takenOver { return }
        if announcedIdentity {
            takenOver = true
            confirmingUntil = nil
            retryAt = nil
            problem = "another box uses the name \(boxName) on \(settings.broker):\(settings.port); give each box its own mqtt.box, then restart this one"
            client?.disconnect()
            Console.error("MQTT: \(problem!)")
        } else if confirmingUntil != nil {
            goLive()
        }
    }

    /// The name is this box's: its identity, "online", discovery and every latest payload.
    private func goLive() {
        guard let client, client.connected, !takenOver else { return }
        confirmingUntil = nil
        announcedIdentity = true
        client.publish("\(base)/identity", Array(identity.utf8), qos: 1, retain: true)
        client.publish("\(base)/online", Array("online".utf8), qos: 1, retain: true)
        if settings.discovery { for (topic, payload) in discovery() { client.publish(topic, payload, qos: 1, retain: true) } }
        // Everything the broker should hold, at once: a broker restarted empty learns it all.
        dirty = Set(latest.keys)
        flush()
    }

    private func lost(_ why: String) {
        confirmingUntil = nil
        if takenOver { return }
        // The broker's refusal says more than the lost connection that follows it.
        problem = refusal ?? why
        connectingSince = nil
        if retryAt == nil {
            retryAt = now + backoff
            backoff = min(backoff * 2, .seconds(30))
        }
    }

    func close() {
        guard let client, client.connected, !takenOver, confirmingUntil == nil else { return }
        client.publish("\(base)/online", Array("offline".utf8), qos: 1, retain: true)
        _ = client.write()
        client.disconnect()
    }

    var row: SystemsCheck.Row {
        // Without a client nothing is tried again: the problem says what to do.
        if client == nil, let problem {
            return SystemsCheck.Row(.mqtt, .attention, "No: \(problem)", remedy: "Fix what [mqtt] names, then restart the box")
        }
        if refusal != nil, let problem {
            return SystemsCheck.Row(.mqtt, .attention, "No: \(problem); trying again",
                                    remedy: "Check mqtt.username and the password in mqtt.password_file against the broker's users")
        }
        if takenOver, let problem { return SystemsCheck.Row(.mqtt, .attention, "No: \(problem)") }
        if let problem { return SystemsCheck.Row(.mqtt, .attention, "No: \(problem); trying again") }
        if client?.connected != true { return SystemsCheck.Row(.mqtt, .attention, "No: connecting to \(settings.broker):\(settings.port)") }
        return SystemsCheck.Row(.mqtt, .ok, "Yes: \(base) on \(settings.broker):\(settings.port)")
    }

    // MARK: - BoxObserver

    func show(_ status: WatchStatus, now: Instant) { show(status, checks: [], now: now) }

    /// `checks` are the parts' Systems Check rows, as the snapshot file has them.
    func show(_ status: WatchStatus, checks rows: [SystemsCheck.Row], now: Instant) {
        self.now = now
        guard let snapshot else { return }
        // Decided as the snapshot file is (`SnapshotWriter.ChangeKey`), but of the status the
        // box announces: a decision reaches the broker with its receipt, not before.
        let key = SnapshotWriter.ChangeKey(status, localRows: rows)
        let due = lastPublish.map { now >= $0 + interval } ?? true
        guard due || key != lastKey else { return }
        lastKey = key
        lastPublish = now
        let s = snapshot.snapshot(status, now: now, localRows: rows)
        let json = s.json
        func put(_ topic: String, _ value: JSON?) {
            latest["\(base)/\(topic)"] = Array((value ?? .null).text.utf8)
            dirty.insert("\(base)/\(topic)")
        }
        put("status", json)
        put("state", .object([("verdict", json["position"]?["verdict"]), ("says", json["position"]?["says"]),
                              ("wont_ring", json["wont_ring"]), ("written_at", json["written_at"]),
                              ("valid_until", json["valid_until"])]))
        put("alarm", json["alarm"])
        put("position", .object([("anchor", json["anchor"]), ("distance_m", json["distance_m"]),
                                 ("alert_radius_m", json["alert_radius_m"]), ("gps", json["gps"])]))
        put("faults", json["faults"])
        put("check", .object([("headline", .string(SystemsCheck.headline(s.checks))), ("rows", json["checks"])]))
        if settings.discovery { put("attributes", HomeAssistantDiscovery.attributes(status, now: now)) }
        switch status.alarm {
        case .ringing(let e), .snoozed(_, let e): announcedEpisode = e
        case .off, .armed: announcedEpisode = nil
        }
        flush()
    }

    func nextDeadline(now: Instant) -> Instant? { lastPublish.map { $0 + interval } }

    /// Publishes the latest payload of each changed topic, unless libmosquitto still holds
    /// unsent bytes: then they wait, and a newer payload replaces an older one.
    private func flush() {
        guard let client, client.connected, confirmingUntil == nil, !takenOver, !client.wantsToWrite else { return }
        for topic in dirty.sorted() {
            if let payload = latest[topic], client.publish(topic, payload, qos: 0, retain: true) { published += 1 }
        }
        dirty.removeAll()
    }

    // MARK: - Pollable

    func pollRequests() -> [PollDescriptor] {
        guard let client, client.fd >= 0 else { return [] }
        return [PollDescriptor(fd: client.fd, wanted: PollEvents.readable | (client.wantsToWrite ? PollEvents.writable : 0))]
    }

    func nextDeadline() -> Instant? {
        [retryAt, miscAt, confirmingUntil, connectingSince.map { $0 + .seconds(10) }].compactMap { $0 }.min()
    }

    func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        self.now = now
        guard let client else { return [] }
        for r in ready {
            if r.happened(PollEvents.writable), let err = client.write() { lost("connection lost (\(err))") }
            if r.happened(PollEvents.readableOrClosed), let err = client.read() { lost("connection lost (\(err))") }
        }
        if let since = connectingSince, now >= since + .seconds(10) {
            client.disconnect()
            lost("no answer from \(settings.broker):\(settings.port)")
        }
        if let m = miscAt, now >= m {
            miscAt = now + .seconds(Double(settings.keepalive) / 2)
            if client.connected, let err = client.misc() { lost("connection lost (\(err))") }
        }
        if let c = confirmingUntil, now >= c { goLive() }
        if let r = retryAt, now >= r {
            retryAt = nil
            start(now: now)
        }
        flush()
        return []
    }

    // MARK: - Commands

    /// Requests on `<base>/command`: the control socket's JSON lines, answered on
    /// `<base>/reply` with the socket's replies (a receipt only once the journal has it).
    func serve(_ ready: [PollDescriptor], now: Instant, box: Box) {
        _ = service(ready: ready, now: now)
        if snoozePressed {
            snoozePressed = false
            pressSnooze(now: now, box: box)
        }
        let todo = commands
        commands.removeAll()
        for payload in todo {
            let (id, result) = ControlProtocol.parse(payload)
            let answer: (ControlReply) -> Void = { [weak self] reply in self?.reply(reply, id: id) }
            switch result {
            case .failure(let e): answer(.error(code: e.code, says: e.says))
            case .success where !settings.acceptCommands:
                answer(.error(code: "commands_off", says: "Request refused: this box takes no commands over MQTT"))
            case .success(let decision):
                if let refusal = Self.skipperOnly(decision, box: box) { answer(refusal) } else { box.decide(decision, now: now, answer: answer) }
            }
        }
    }

    private func reply(_ reply: ControlReply, id: String?) {
        client?.publish("\(base)/reply", Array(reply.json(id: id).text.utf8), qos: 1, retain: false)
    }

    /// A remote decision may snooze a ringing alarm; while the alarm rings or is snoozed, or
    /// the boat is outside its circle, it may not widen the radius, move the mark, release it
    /// or disarm: what quiets a drag stays with the switch and the button on board. nil: the
    /// decision goes to the watch, which may still refuse it.
    static func skipperOnly(_ decision: Decision, box: Box) -> ControlReply? {
        let ringing: Bool
        switch box.watch.alarm {
        case .ringing, .snoozed: ringing = true
        case .off, .armed: ringing = false
        }
        let outside: Bool
        switch box.watch.verdict {
        case .dragging, .checking: outside = true
        default: outside = false
        }
        guard ringing || outside else { return nil }
        switch decision {
        case .snooze, .arm: return nil
        case .setRadius(let m) where m.value <= box.watch.radius.value: return nil
        case .setRadius, .mark, .release, .disarm:
            let why = ringing ? "the alarm is on" : "the boat is outside its circle"
            return .error(code: "skipper_only",
                          says: "Request refused: \(why); only a snooze comes over the network, the rest is the skipper's on board")
        }
    }

    var homeAssistant: HomeAssistantDiscovery {
        HomeAssistantDiscovery(base: base, boxName: boxName, acceptCommands: settings.acceptCommands, radiusRange: radiusRange)
    }

    /// Home Assistant's discovery configs (`HomeAssistantDiscovery`).
    func discovery() -> [(String, [UInt8])] { homeAssistant.configs() }

    /// Home Assistant's snooze button: a press names no episode, so it answers the one this
    /// output last announced (what Home Assistant showed), as an NMEA ACK does; a press for an
    /// episode already answered is refused like a second `anchor-alert snooze`.
    private func pressSnooze(now: Instant, box: Box) {
        let answer: (ControlReply) -> Void = { [weak self] reply in
            guard let self else { return }
            self.client?.publish("\(self.base)/reply", Array(reply.json(id: "home-assistant-snooze").text.utf8), qos: 1, retain: false)
        }
        guard settings.acceptCommands else { return }
        // No alarm rings but a fault sounds: the press snoozes the fault sound, as `anchor-alert
        // snooze` does (the watch takes any episode for it then).
        guard let episode = announcedEpisode ?? (box.watch.faultSounding ? 0 : nil) else {
            return answer(.error(code: "nothing_to_snooze", says: "Nothing to snooze: the alarm is not ringing"))
        }
        box.decide(.snooze(episode: episode), now: now, answer: answer)
    }
}
