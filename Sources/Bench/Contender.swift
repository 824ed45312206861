import Recordings
import WatchCore

/// One rule in the race: the box's watch core (through `Replay`, exactly as `anchor-alert
/// replay` drives it) or a peer's rule, with a name for the tables.
struct Contender {
    enum Kind {
        case box(WatchSettings)
        case peer(@Sendable () -> any PeerRule)
    }

    let name: String
    let kind: Kind

    var isBox: Bool { if case .box = kind { true } else { false } }

    /// When the rule first rings on these readings, seconds of run time; nil if it never does.
    func firstAlarm(readings: [GPSReading], offsets: [Offset?], anchor: Coordinate, radius: Double) -> Double? {
        switch kind {
        case .box(let settings):
            var options = Replay.Options()
            options.settings = settings
            options.radius = Meters(radius)
            options.anchor = anchor
            options.arm = true
            return Replay.run(readings, options: options).summary.firstAlarmT
        case .peer(let make):
            var rule = make()
            for (reading, offset) in zip(readings, offsets) {
                let t = reading.received.seconds
                if rule.take(t: t, offset: offset, radius: radius) { return t }
            }
            return nil
        }
    }

    static func box(_ name: String, _ settings: WatchSettings = WatchSettings()) -> Contender {
        Contender(name: name, kind: .box(settings))
    }

    /// The peers, each with its published defaults (and the delays a Signal K user would pick).
    static let peers: [Contender] = [
        Contender(name: "One fix (Signal K, AvNav, OpenCPN)", kind: .peer { OneFixRule() }),
        Contender(name: "Delay 5 s (Signal K, watchdog_pi)", kind: .peer { DelayRule(delay: 5) }),
        Contender(name: "Delay 10 s", kind: .peer { DelayRule(delay: 10) }),
        Contender(name: "Delay 20 s", kind: .peer { DelayRule(delay: 20) }),
        Contender(name: "Delay 30 s", kind: .peer { DelayRule(delay: 30) }),
        Contender(name: "Delay 60 s", kind: .peer { DelayRule(delay: 60) }),
        Contender(name: "3 in a row or 8 s (Yokuli)", kind: .peer { YokuliRule() }),
        Contender(name: "Weighted accumulator (ESP32 ePaper)", kind: .peer { EpaperAccumulatorRule() }),
        Contender(name: "Up/down counter (ankerwache)", kind: .peer { AnkerwacheRule() }),
    ]
}
