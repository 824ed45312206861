import Posix
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
    /// Short name for the command line (`--check --rule SLUG`).
    var slug = "box"

    var isBox: Bool { if case .box = kind { true } else { false } }

    /// What a run came to, judged only by its outcome against the simulated truth.
    struct Outcome {
        /// First ring, seconds of run time; nil if it never rang.
        var firstAlarm: Double?
        /// When the box first raised the GPS fault (can't judge for too long); nil for a peer.
        var gpsFault: Double?
        /// Times the box's verdict turned Holding while the true position stood more than
        /// `Contender.farOutside` beyond the alert radius (a lie on the ring); 0 for a peer.
        var holdingFarOutside = 0
        /// Seconds the box's verdict read Holding while the true position stood beyond the alert
        /// radius plus three of the receiver's noise (RMS): must be none; 0 for a peer.
        var holdingBeyondNoise = 0.0
        /// The box's alarm state after the last reading (nil for a peer).
        var endAlarm: AlarmState.Kind?
        /// Restored ringing, the alarm went quiet on its own (it must stay latched).
        var stoppedRinging = false
    }

    /// How far beyond the radius a Holding verdict counts as a lie: well past any noise.
    static let farOutside = 30.0

    /// When the rule first rings on these readings, seconds of run time; nil if it never does.
    func firstAlarm(readings: [GPSReading], offsets: [Offset?], anchor: Coordinate, radius: Double) -> Double? {
        switch kind {
        case .box(let settings):
            return Contender.replay(readings, settings: settings, anchor: anchor, radius: radius, restore: nil).summary.firstAlarmT
        case .peer(let make):
            var rule = make()
            for (reading, offset) in zip(readings, offsets) {
                let t = reading.received.seconds
                if rule.take(t: t, offset: offset, radius: radius) { return t }
            }
            return nil
        }
    }

    /// The whole run: the box through `Replay` (restored from its journal first on a restart),
    /// a peer fed every reading.
    func run(_ s: Scenario) -> Outcome {
        switch kind {
        case .box(let settings):
            var restore: Replay.Restore?
            if case .restart(let latched, _) = s.kind, let at = s.restartT {
                restore = Replay.Restore(at: at, armed: true, ringingEpisode: latched ? 1 : nil)
            }
            let r = Contender.replay(s.readings, settings: settings, anchor: s.anchor, radius: s.radius, restore: restore)
            var out = Outcome(firstAlarm: r.summary.firstAlarmT, endAlarm: r.watch.alarm.kind)
            // Latched before the restart: did it ever stop ringing (nothing here snoozes or disarms)?
            out.stoppedRinging = restore?.ringingEpisode != nil && r.records.contains { $0.kind == .alarm && $0.alarm.kind != .ringing }
            out.gpsFault = r.records.first { $0.kind == .fault && $0.code == FaultKind.gpsLost.rawValue }?.t
            out.holdingBeyondNoise = Contender.holdingBeyond(s, r.records, by: 3 * s.noiseRMS)
            out.holdingFarOutside = r.records.filter {
                $0.kind == .verdict && $0.verdict.kind == .holding && s.trueDistance(at: $0.t) > s.radius + Contender.farOutside
            }.count
            return out
        case .peer:
            return Outcome(firstAlarm: firstAlarm(readings: s.readings, offsets: s.measured, anchor: s.anchor, radius: s.radius))
        }
    }

    /// Seconds the verdict read Holding while the true position stood more than `margin` beyond
    /// the alert radius: each reading's time to the next counts with the verdict at it.
    static func holdingBeyond(_ s: Scenario, _ records: [Replay.Record], by margin: Double) -> Double {
        var verdicts = records.lazy.filter { $0.kind == .verdict }.makeIterator()
        var next = verdicts.next(), holding = false, total = 0.0
        for (i, reading) in s.readings.enumerated() {
            let t = reading.received.seconds
            while let v = next, v.t <= t {
                holding = v.verdict.kind == .holding
                next = verdicts.next()
            }
            guard holding, s.truth[i] > s.radius + margin else { continue }
            let end = i + 1 < s.readings.count ? s.readings[i + 1].received.seconds : t + 1
            // A verdict change before the next reading ends the stretch there.
            total += min(end, next?.t ?? end) - t
        }
        return total
    }

    static func replay(_ readings: [GPSReading], settings: WatchSettings, anchor: Coordinate, radius: Double,
                       restore: Replay.Restore?) -> Replay {
        var options = Replay.Options()
        options.settings = settings
        options.radius = Meters(radius)
        options.anchor = anchor
        options.arm = true
        options.restore = restore
        return Replay.run(readings, options: options)
    }

    /// The rule a `--rule` slug names: "box", "box:PRESET" (`BoxTuning.preset`) or a peer.
    static func named(_ slug: String) -> Contender? {
        if slug == "box" {
            // An exploration's or a must-fail run's ANCHOR_BOX_SET changes the box (BoxTuning.defaults).
            let set = Process.environment("ANCHOR_BOX_SET")
            return box(set.map { "Box, ANCHOR_BOX_SET=\($0)" } ?? "Box (defaults)", BoxTuning.defaults)
        }
        if slug.hasPrefix("box:") {
            let preset = String(slug.dropFirst(4))
            return BoxTuning.preset(preset).map { box("Box, \(preset)", $0) }
        }
        return peers.first { $0.slug == slug }
    }

    static func box(_ name: String, _ settings: WatchSettings = WatchSettings()) -> Contender {
        Contender(name: name, kind: .box(settings))
    }

    /// The peers, each with its published defaults (and the delays a Signal K user would pick).
    static let peers: [Contender] = [
        Contender(name: "One fix (Signal K, AvNav, OpenCPN)", kind: .peer { OneFixRule() }, slug: "one-fix"),
        Contender(name: "Delay 5 s (Signal K, watchdog_pi)", kind: .peer { DelayRule(delay: 5) }, slug: "delay-5"),
        Contender(name: "Delay 10 s", kind: .peer { DelayRule(delay: 10) }, slug: "delay-10"),
        Contender(name: "Delay 20 s", kind: .peer { DelayRule(delay: 20) }, slug: "delay-20"),
        Contender(name: "Delay 30 s", kind: .peer { DelayRule(delay: 30) }, slug: "delay-30"),
        Contender(name: "Delay 60 s", kind: .peer { DelayRule(delay: 60) }, slug: "delay-60"),
        Contender(name: "3 in a row or 8 s (Yokuli)", kind: .peer { YokuliRule() }, slug: "yokuli"),
        Contender(name: "Weighted accumulator (ESP32 ePaper)", kind: .peer { EpaperAccumulatorRule() }, slug: "esp32"),
        Contender(name: "Up/down counter (ankerwache)", kind: .peer { AnkerwacheRule() }, slug: "ankerwache"),
    ]
}
