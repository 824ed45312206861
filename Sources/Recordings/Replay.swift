import WatchCore

/// Drives a `Watch` through recorded readings at full speed with the file's own time, exactly as
/// the event loop would: between two fixes, the watch is ticked at each deadline it asks for
/// (staleness, snooze end, grace periods), so gaps in a file are judged as they were lived.
public struct Replay {
    public struct Options: Sendable {
        public var settings = WatchSettings()
        public var radius: Meters?
        /// Mark here at the first fix.
        public var anchor: Coordinate?
        /// Mark as soon as the watch would accept a mark at or after this many seconds.
        public var markAfter: Double?
        /// Arm right after marking.
        public var arm = false
        /// Start as a box restarted from its journal (with `anchor` and `radius`), before the
        /// first reading: armed, or with the alarm latched and ringing.
        public var restore: Restore?
        public init() {}
    }

    public struct Restore: Sendable {
        /// File time of the restart, seconds.
        public var at: Double
        public var armed: Bool
        public var ringingEpisode: Int?
        public init(at: Double, armed: Bool, ringingEpisode: Int? = nil) {
            self.at = at
            self.armed = armed
            self.ringingEpisode = ringingEpisode
        }
    }

    public struct Record: Hashable, Sendable {
        public enum Kind: String, Sendable {
            case verdict, alarm, fault, faultCleared = "fault_cleared", refused, marked, armed, radius
        }
        public var t: Double
        public var kind: Kind
        public var verdict: PositionVerdict
        public var alarm: AlarmState
        public var distance: Meters?
        /// The fault or refusal in words; the fault kind for faults.
        public var detail: String?
        public var code: String?
    }

    public struct Summary: Hashable, Sendable {
        public var fixes: Int
        public var markedT: Double?
        public var alarms: Int
        public var firstAlarmT: Double?
    }

    public private(set) var watch: Watch
    public private(set) var records: [Record] = []
    public private(set) var summary = Summary(fixes: 0, markedT: nil, alarms: 0, firstAlarmT: nil)
    private let options: Options
    private var now = Instant.zero
    private var marked = false

    public init(options: Options) {
        self.options = options
        self.watch = Watch(settings: options.settings)
    }

    /// Runs a whole log and returns the replay with its records and summary.
    public static func run(_ readings: [GPSReading], options: Options) -> Replay {
        var r = Replay(options: options)
        if let radius = options.radius { r.apply(.decision(.setRadius(radius)), at: .zero, t: 0, quiet: true) }
        if let restore = options.restore, let anchor = options.anchor { r.restore(restore, anchor: anchor) }
        for reading in readings { r.feed(reading) }
        return r
    }

    /// Feeds one reading whose `received` is its file time.
    public mutating func feed(_ reading: GPSReading) {
        advance(to: reading.received)
        summary.fixes += 1
        apply(.reading(reading), at: reading.received, t: reading.received.seconds)
        guard !marked else { return }
        if let anchor = options.anchor {
            mark(.at(anchor), at: reading.received)
        } else if let after = options.markAfter, reading.received.seconds >= after {
            mark(.here, at: reading.received)
        }
    }

    private mutating func restore(_ restore: Restore, anchor: Coordinate) {
        let at = Instant(seconds: restore.at)
        now = max(now, at)
        marked = true
        summary.markedT = restore.at
        note(watch.restore(anchor: anchor, radius: options.radius ?? options.settings.radius, armed: restore.armed,
                           ringingEpisode: restore.ringingEpisode, lastEpisode: restore.ringingEpisode ?? 0, at: at),
             t: restore.at)
    }

    /// Ticks the watch at every deadline it asks for up to (not including) `instant`.
    public mutating func advance(to instant: Instant) {
        while let next = watch.nextDeadline(after: now), next < instant {
            apply(.tick, at: next, t: next.seconds)
        }
        now = max(now, instant)
    }

    private mutating func mark(_ request: MarkRequest, at instant: Instant) {
        let actions = watch.handle(.decision(.mark(request)), at: instant)
        guard actions.contains(where: { if case .accepted = $0 { true } else { false } }) else { return }
        marked = true
        summary.markedT = instant.seconds
        note(actions, t: instant.seconds)
        if options.arm { apply(.armSwitch(on: true), at: instant, t: instant.seconds) }
    }

    private mutating func apply(_ event: Event, at instant: Instant, t: Double, quiet: Bool = false) {
        now = max(now, instant)
        let actions = watch.handle(event, at: instant)
        if !quiet { note(actions, t: t) }
    }

    private mutating func note(_ actions: [Action], t: Double) {
        for action in actions {
            // The status (its words, the distance) only for what is recorded: most actions are
            // a fix's track, and building the status for each would cost more than the watch.
            func add(_ kind: Record.Kind, detail: String? = nil, code: String? = nil) {
                records.append(Record(t: t, kind: kind, verdict: watch.verdict, alarm: watch.alarm,
                                      distance: watch.status(at: now).distance, detail: detail, code: code))
            }
            switch action {
            case .verdictChanged: add(.verdict)
            case .alarmChanged(_, let to):
                add(.alarm)
                if case .ringing = to {
                    summary.alarms += 1
                    if summary.firstAlarmT == nil { summary.firstAlarmT = t }
                }
            case .faultRaised(let f): add(.fault, detail: f.message, code: f.kind.rawValue)
            case .faultCleared(let k): add(.faultCleared, code: k.rawValue)
            case .refused(_, let why): add(.refused, detail: Words.refusal(why, settings: options.settings), code: why.rawValue)
            case .accepted(let receipt, _):
                switch receipt.decision {
                case .mark: add(.marked, detail: receipt.anchor?.description)
                case .arm: add(.armed)
                case .setRadius: add(.radius, detail: receipt.radius.description)
                default: break
                }
            default: break
            }
        }
    }
}
