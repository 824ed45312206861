import WatchCore

/// Runs every contender over the same simulated nights and drags and collects what the tables
/// and plots show.
struct DetectionBench {
    struct Plan {
        /// Receivers and the margin between swing circle and alert radius each is judged at.
        var cells: [(profile: ReceiverProfile, margin: Double)]
        var nights: [ReceiverProfile: Int]
        var dragsPerSpeed: [ReceiverProfile: Int]
        var speeds: [Double] = [0.2, 0.5, 1, 2, 3, 4]
        /// The receiver conditions, each judged on these cells with its own nights and drags.
        var conditions: [Scenario.Condition] = [.dropouts, .accuracyBursts, .twoD, .rmcOnly, .sparse, .speedFromPosition, .leaps]
        var conditionCells: [(profile: ReceiverProfile, margin: Double)] = [(.good(1), 10), (.poor(1), 20)]
        var conditionNights = 0
        var conditionSpeeds: [Double] = [0.1, 0.5, 2]
        var conditionDrags = 0
        /// Restarts per cell and variant (latched or armed, boat stopped or dragging 0.5 kn).
        var restarts = 0
    }

    struct RestartKey: Hashable {
        var contender: Int
        var profile: ReceiverProfile
        var latched: Bool
        var knots: Double
    }

    struct RestartTally {
        var runs = 0
        /// Runs in which the ring said Holding with the boat far outside.
        var holdingLies = 0
        /// Latched runs whose alarm went quiet on its own.
        var stopped = 0
        /// Seconds from the first fix after the restart to the ring (armed runs).
        var delays: [Double] = []
        var missed = 0
    }

    struct NightTally {
        var nights = 0
        var alarmed = 0
        /// Nights on which the box raised the GPS fault, and when (seconds after the start).
        var faulted = 0
        var faultTimes: [Double] = []
        var perThousand: Double { nights > 0 ? 1000 * Double(alarmed) / Double(nights) : 0 }
    }

    struct DragTally {
        /// Alarm time minus the true exit from the alert circle, seconds.
        var delays: [Double] = []
        /// How far the true position stood beyond the alert radius when the alarm rang, meters.
        var past: [Double] = []
        /// No alarm within `Scenario.dragFollow` of the exit.
        var missed = 0
        /// Rang before the anchor broke out: a false alarm on a drag night.
        var early = 0
        var runs = 0
    }

    struct Key: Hashable {
        var contender: Int
        var profile: ReceiverProfile
        var knots: Double?
        var condition: Scenario.Condition = .plain
    }

    let contenders: [Contender]
    let sources: [NoiseCapture]
    private(set) var nights: [Key: NightTally] = [:]
    private(set) var drags: [Key: DragTally] = [:]
    /// Lower bound per receiver and speed: time from exit until the true position stands
    /// beyond the radius by twice the noise.
    private(set) var bounds: [Key: [Double]] = [:]
    private(set) var restarts: [RestartKey: RestartTally] = [:]
    private(set) var noise: [ReceiverProfile: [Double]] = [:]
    private(set) var fixesReplayed = 0

    init(contenders: [Contender], sources: [NoiseCapture]) {
        self.contenders = contenders
        self.sources = sources
    }

    /// Night `i` of a main class (the benchmark's, `--tune`'s and the check's seeds).
    static func mainNight(_ profile: ReceiverProfile, margin: Double, _ i: Int, sources: [NoiseCapture]) -> Scenario {
        Scenario(kind: .night, profile: profile, margin: margin, seed: seed(1, profile.seedTag, UInt64(i)), sources: sources)
    }

    static func seed(_ parts: UInt64...) -> UInt64 {
        var h: UInt64 = 0x243F_6A88_85A3_08D3
        for p in parts {
            var g = SplitMix64(seed: h ^ p)
            h = g.next()
        }
        return h
    }

    mutating func run(_ plan: Plan, progress: (String) -> Void) {
        for (profile, margin) in plan.cells {
            let tag = profile.seedTag
            for i in 0..<(plan.nights[profile] ?? 0) {
                night(DetectionBench.mainNight(profile, margin: margin, i, sources: sources))
            }
            progress("nights \(profile.label): \(plan.nights[profile] ?? 0)")
            for knots in plan.speeds {
                for i in 0..<(plan.dragsPerSpeed[profile] ?? 0) {
                    drag(Scenario(kind: .drag(knots: knots), profile: profile, margin: margin,
                                  seed: DetectionBench.seed(2, tag, UInt64(knots * 10), UInt64(i)), sources: sources))
                }
                progress("drags \(profile.label) \(knots) kn: \(plan.dragsPerSpeed[profile] ?? 0)")
            }
        }
        for (c, condition) in plan.conditions.enumerated() {
            for (profile, margin) in plan.conditionCells {
                let tag = profile.seedTag
                for i in 0..<plan.conditionNights {
                    night(Scenario(kind: .night, profile: profile, margin: margin,
                                   seed: DetectionBench.seed(3, tag, UInt64(c), UInt64(i)), sources: sources, condition: condition))
                }
                for knots in plan.conditionSpeeds where condition != .sparse {
                    for i in 0..<plan.conditionDrags {
                        drag(Scenario(kind: .drag(knots: knots), profile: profile, margin: margin,
                                      seed: DetectionBench.seed(4, tag, UInt64(c), UInt64(knots * 10), UInt64(i)),
                                      sources: sources, condition: condition))
                    }
                }
            }
            progress("\(condition.rawValue): \(plan.conditionNights) nights, \(plan.conditionDrags) drags per speed and receiver")
        }
        for (profile, margin) in plan.conditionCells {
            for latched in [true, false] {
                for knots in [0.0, 0.5] {
                    for i in 0..<plan.restarts {
                        let s = Scenario(kind: .restart(latched: latched, knots: knots), profile: profile, margin: margin,
                                         seed: DetectionBench.seed(5, profile.seedTag, latched ? 1 : 0, UInt64(knots * 10), UInt64(i)),
                                         sources: sources)
                        fixesReplayed += s.readings.count
                        let first = s.readings.first?.received.seconds ?? 0
                        for (c, contender) in contenders.enumerated() {
                            let o = contender.run(s)
                            let key = RestartKey(contender: c, profile: profile, latched: latched, knots: knots)
                            var t = restarts[key] ?? RestartTally()
                            t.runs += 1
                            if o.holdingFarOutside > 0 { t.holdingLies += 1 }
                            if latched, o.stoppedRinging { t.stopped += 1 }
                            if !latched {
                                if let a = o.firstAlarm { t.delays.append(a - first) } else { t.missed += 1 }
                            }
                            restarts[key] = t
                        }
                    }
                }
            }
        }
        if plan.restarts > 0 { progress("restarts: \(plan.restarts) per variant and receiver") }
    }

    private mutating func night(_ s: Scenario) {
        noise[s.profile, default: []].append(s.noiseRMS)
        fixesReplayed += s.readings.count
        for (c, contender) in contenders.enumerated() {
            let key = Key(contender: c, profile: s.profile, knots: nil, condition: s.condition)
            let o = contender.run(s)
            var tally = nights[key] ?? NightTally()
            tally.nights += 1
            if o.firstAlarm != nil { tally.alarmed += 1 }
            if let f = o.gpsFault { tally.faulted += 1; tally.faultTimes.append(f) }
            nights[key] = tally
        }
    }

    private mutating func drag(_ s: Scenario) {
        fixesReplayed += s.readings.count
        guard case .drag(let knots) = s.kind, let exit = s.exitT, let breakout = s.breakoutT else { return }
        let bkey = Key(contender: -1, profile: s.profile, knots: knots, condition: s.condition)
        if let b = s.boundT { bounds[bkey, default: []].append(b - exit) }
        for (c, contender) in contenders.enumerated() {
            let key = Key(contender: c, profile: s.profile, knots: knots, condition: s.condition)
            var tally = drags[key] ?? DragTally()
            tally.runs += 1
            let alarm = contender.run(s).firstAlarm
            if let a = alarm, a < breakout {
                tally.early += 1
            } else if let a = alarm, a <= exit + Scenario.dragFollow {
                tally.delays.append(a - exit)
                tally.past.append(s.trueDistance(at: a) - s.radius)
            } else {
                tally.missed += 1
            }
            drags[key] = tally
        }
    }
}
