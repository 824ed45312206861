import WatchCore

/// One alert as IEC 61162-1 carries it (ALF, ALC) and as older plotters read it (ALR).
public struct Alert: Hashable, Sendable {
    public enum Priority: String, Hashable, Sendable { case alarm = "A", warning = "W", caution = "C" }
    /// ALF's alert state. A box alert that has ended is sent once as `normal`, then dropped.
    public enum State: String, Hashable, Sendable {
        case unacknowledged = "V"
        case silenced = "S"
        case acknowledged = "A"
        case normal = "N"
    }

    public struct Key: Hashable, Sendable, Comparable {
        public var identifier: Int
        public var instance: Int
        public init(identifier: Int, instance: Int) {
            self.identifier = identifier
            self.instance = instance
        }
        public static func < (a: Key, b: Key) -> Bool { (a.identifier, a.instance) < (b.identifier, b.instance) }
    }

    public var key: Key
    public var priority: Priority
    public var state: State
    /// ALF sentence 1's text: a short title (16 characters fit every plotter we know).
    public var title: String
    /// ALF sentence 2's text and ALR's: one line in the product's words.
    public var description: String
    /// ALR's three-digit "unique alarm number".
    public var alarmNumber: Int

    public init(key: Key, priority: Priority, state: State, title: String, description: String, alarmNumber: Int) {
        self.key = key
        self.priority = priority
        self.state = state
        self.title = title
        self.description = description
        self.alarmNumber = alarmNumber
    }
}

/// The box's alerts, read from the watch's status: the anchor alarm, the GPS faults and the
/// journal not saving.
/// Identifiers from 10000 are the standard's range for alerts a manufacturer defines.
public enum BoxAlerts {
    public static let anchorIdentifier = 10001
    public static let gpsIdentifier = 10002
    /// The journal not saving: what the box decides now is forgotten after a restart.
    public static let journalIdentifier = 10003
    public static let anchorAlarmNumber = 1
    public static let journalAlarmNumber = 5

    /// The GPS faults that are "the GPS fault" on the network, each its own alert instance.
    static let gpsKinds: [(FaultKind, instance: Int, title: String)] = [
        (.gpsLost, 1, "GPS reading lost"),
        (.gpsd, 2, "gpsd silent"),
        (.receiver, 3, "GPS unit gone"),
    ]

    public static func alerts(from status: WatchStatus) -> [Alert] {
        var out: [Alert] = []
        let distance = status.distance.map { "\($0) from anchor" } ?? "position unknown"
        switch status.alarm {
        case .ringing(let episode):
            out.append(Alert(key: .init(identifier: anchorIdentifier, instance: instance(episode)), priority: .alarm,
                             state: .unacknowledged, title: "Anchor dragging",
                             description: "Dragging: \(distance) (alert radius \(status.radius))",
                             alarmNumber: anchorAlarmNumber))
        case .snoozed(_, let episode):
            out.append(Alert(key: .init(identifier: anchorIdentifier, instance: instance(episode)), priority: .alarm,
                             state: .silenced, title: "Anchor dragging",
                             description: "Snoozed: \(distance) (alert radius \(status.radius))",
                             alarmNumber: anchorAlarmNumber))
        case .off, .armed: break
        }
        for (kind, inst, title) in gpsKinds {
            guard let fault = status.faults.first(where: { $0.kind == kind }) else { continue }
            out.append(Alert(key: .init(identifier: gpsIdentifier, instance: inst), priority: .warning,
                             state: fault.pushes && status.faultSounding ? .unacknowledged : .acknowledged,
                             title: title, description: text(fault, status), alarmNumber: anchorAlarmNumber + inst))
        }
        // A decision announced while this is active was carried out but not saved.
        if let fault = status.faults.first(where: { $0.kind == .journal }) {
            out.append(Alert(key: .init(identifier: journalIdentifier, instance: 1), priority: .warning,
                             state: fault.pushes && status.faultSounding ? .unacknowledged : .acknowledged,
                             title: "Journal failing", description: fault.message, alarmNumber: journalAlarmNumber))
        }
        return out
    }

    /// A GPS fault's words as of now: the GPS-lost fault says how long since the last usable
    /// reading (a changed text goes out with the next repetition, as a new revision).
    static func text(_ fault: Fault, _ status: WatchStatus) -> String {
        fault.kind == .gpsLost ? status.gpsLostText ?? fault.message : fault.message
    }

    /// Alert instances run 1 to 999999; episodes beyond wrap (a box would need a million alarms).
    static func instance(_ episode: Int) -> Int { (max(episode, 1) - 1) % 999_999 + 1 }
}

/// What goes out, and when: every change of an alert at once (ALF, then ALR for older
/// plotters, then the ALC list), and every `repeatEvery` the ALF of each active alert, its ALR
/// and the ALC list (an empty list too, so a listener knows nothing is active). An alert that
/// ends is sent once more in the normal state. Pure: the caller hands in both clocks.
public struct AlertStream: Sendable {
    public var talker: String
    public var repeatEvery: Duration

    struct Tracked: Sendable {
        var alert: Alert
        var revision: Int
        var changedWall: Double
        /// The description the current revision went out with.
        var sentText: String
    }

    private static func bump(_ t: inout Tracked, wall: Double) {
        t.revision = t.revision % 99 + 1
        t.changedWall = wall
        t.sentText = t.alert.description
    }

    private var active: [Alert.Key: Tracked] = [:]
    private var alfMessage = 0
    private var alcMessage = 0
    private var heartbeats = 0
    private(set) public var nextRepeat: Instant?
    /// The alarm episode the last anchor ALF or ALR announced, for an ACK that names none.
    private(set) public var announcedEpisode: Int?

    /// "II", integrated instrumentation: the talker a plotter expects of a box like this one.
    public static let defaultTalker = "II"
    public static let defaultRepeat: Duration = .seconds(30)

    public init(talker: String = AlertStream.defaultTalker, repeatEvery: Duration = AlertStream.defaultRepeat) {
        self.talker = talker
        self.repeatEvery = repeatEvery
    }

    public var activeAlerts: [Alert] { active.values.map(\.alert).sorted { $0.key < $1.key } }

    /// The sentences due at `now` for the box's alerts as they are now.
    public mutating func update(_ alerts: [Alert], now: Instant, wall: Double) -> [String] {
        var out: [String] = []
        var changed = false
        let current = Dictionary(alerts.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let numbers = Set(alerts.map(\.alarmNumber))
        for key in active.keys.sorted() where current[key] == nil {
            var t = active[key]!
            t.alert.state = .normal
            Self.bump(&t, wall: wall)
            // ALR has no instance: a snooze that ends in a new episode keeps its alarm number
            // active, so no "normal" ALR for the old one goes out between.
            out += alf(t) + (numbers.contains(t.alert.alarmNumber) ? [] : [alr(t)])
            active[key] = nil
            changed = true
        }
        for alert in alerts.sorted(by: { $0.key < $1.key }) {
            if var t = active[alert.key] {
                let same = t.alert.state == alert.state && t.alert.title == alert.title
                t.alert = alert
                if !same {
                    Self.bump(&t, wall: wall)
                    out += alf(t) + [alr(t)]
                    changed = true
                }
                active[alert.key] = t
            } else {
                let t = Tracked(alert: alert, revision: 1, changedWall: wall, sentText: alert.description)
                active[alert.key] = t
                out += alf(t) + [alr(t)]
                changed = true
            }
            if alert.key.identifier == BoxAlerts.anchorIdentifier { announcedEpisode = alert.key.instance }
        }
        if changed {
            out += alc()
            nextRepeat = now + repeatEvery
        } else if nextRepeat == nil || now >= nextRepeat! {
            // A text that changed since its revision went out (the distance grows) gets a new
            // revision with the repetition: at most one a repeat interval, never one a fix.
            for key in active.keys.sorted() {
                guard var t = active[key], t.sentText != t.alert.description else { continue }
                Self.bump(&t, wall: wall)
                active[key] = t
            }
            out += repetition()
            nextRepeat = now + repeatEvery
        }
        return out
    }

    /// Everything a listener needs to know the present: each active alert and the list.
    public mutating func repetition() -> [String] {
        var out: [String] = []
        for key in active.keys.sorted() { out += alf(active[key]!) + [alr(active[key]!)] }
        return out + alc() + [heartbeat()]
    }

    /// HBT: the box is alive and sending, every repetition; status A (normal).
    private mutating func heartbeat() -> String {
        let id = heartbeats
        heartbeats = (heartbeats + 1) % 10
        let seconds = Double(repeatEvery.components.seconds) + Double(repeatEvery.components.attoseconds) / 1e18
        return Sentence.encode(talker + "HBT", [String(format1(seconds)), "A", String(id)])
    }

    private func format1(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// ACN "request/repeat information": the ALF of one alert (or of all, for identifier 0).
    public mutating func query(identifier: Int, instance: Int?) -> [String] {
        var out: [String] = []
        for key in active.keys.sorted() where identifier == 0
            || key.identifier == identifier && (instance == nil || instance == 0 || key.instance == instance) {
            out += alf(active[key]!)
        }
        return out
    }

    /// ARC: the command the box refused, echoing the ACN's alert.
    public func refusal(identifier: Int, instance: Int?, command: String, wall: Double) -> String {
        Sentence.encode(talker + "ARC", [Sentence.time(wall: wall), "", String(identifier),
                                         instance.map(String.init) ?? "", command])
    }

    /// ALF: two sentences, the title and the description.
    private mutating func alf(_ t: Tracked) -> [String] {
        let id = alfMessage
        alfMessage = (alfMessage + 1) % 10
        let a = t.alert
        let common = ["", String(a.key.identifier), String(a.key.instance), String(t.revision), "0"]
        let first = ["2", "1", String(id), Sentence.time(wall: t.changedWall), "B", a.priority.rawValue, a.state.rawValue] + common
        let second = ["2", "2", String(id), "", "", "", ""] + common
        let address = talker + "ALF"
        return [
            Sentence.encode(address, first + [Sentence.text(a.title, limit: Sentence.room(address, before: first))]),
            Sentence.encode(address, second + [Sentence.text(a.description, limit: Sentence.room(address, before: second))]),
        ]
    }

    /// ALR: condition A while the alert is active, V once normal; acknowledged unless it is
    /// still unacknowledged.
    private func alr(_ t: Tracked) -> String {
        let a = t.alert
        let number = String(a.alarmNumber)
        let fields = [Sentence.time(wall: t.changedWall), String(repeating: "0", count: max(0, 3 - number.count)) + number,
                      a.state == .normal ? "V" : "A", a.state == .unacknowledged ? "V" : "A"]
        let address = talker + "ALR"
        return Sentence.encode(address, fields + [Sentence.text(a.description, limit: Sentence.room(address, before: fields))])
    }

    /// ALC: the active alerts, three entries a sentence (an entry is never split).
    private mutating func alc() -> [String] {
        let id = alcMessage
        alcMessage = (alcMessage + 1) % 100
        let entries = active.keys.sorted().map { key -> [String] in
            ["", String(key.identifier), String(key.instance), String(active[key]!.revision)]
        }
        var chunks: [[[String]]] = stride(from: 0, to: entries.count, by: 3).map { Array(entries[$0..<min($0 + 3, entries.count)]) }
        if chunks.isEmpty { chunks = [[]] }
        return chunks.enumerated().map { n, chunk in
            Sentence.encode(talker + "ALC", [Sentence.two(Int64(chunks.count)), Sentence.two(Int64(n + 1)), Sentence.two(Int64(id)),
                                             String(chunk.count)] + chunk.flatMap { $0 })
        }
    }
}

/// An alert command read from a peer.
public enum AlertCommand: Hashable, Sendable {
    /// ACN: `command` is A (acknowledge), Q (request/repeat), O (responsibility transfer), S (silence).
    case acn(identifier: Int, instance: Int?, command: String)
    /// ACK: the legacy acknowledgement of an ALR's alarm number.
    case ack(alarmNumber: Int)

    /// nil for any sentence that is not a well-formed ACN or ACK.
    public init?(_ s: Sentence.Parsed) {
        switch s.formatter {
        case "ACN":
            // time, mnemonic, identifier, instance, command, status flag "C": without the
            // flag the sentence is not a command (IEC 61162-1), whatever its command field says.
            guard s.fields.count >= 6, let id = Int(s.fields[2]), id >= 0,
                ["A", "Q", "O", "S"].contains(s.fields[4]), s.fields[5] == "C"
            else { return nil }
            let inst = s.fields[3].isEmpty ? nil : Int(s.fields[3])
            if !s.fields[3].isEmpty && inst == nil { return nil }
            self = .acn(identifier: id, instance: inst, command: s.fields[4])
        case "ACK":
            guard s.fields.count >= 1, let n = Int(s.fields[0]), n >= 0 else { return nil }
            self = .ack(alarmNumber: n)
        default:
            return nil
        }
    }
}
