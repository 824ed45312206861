import WatchCore

/// Runs every contender over the same simulated nights and drags and collects what the tables
/// and plots show.
struct DetectionBench {
    struct Plan {
        /// Receivers and the margin between swing circle and alert radius each is judged at.
        var cells: [(profile: ReceiverProfile, margin: Double)]
        var nights: [ReceiverProfile: Int]
        var dragsPerSpeed: [ReceiverProfile: Int]
        var speeds: [Double] = [0.2, 0.5, 1, 2]
    }

    struct NightTally {
        var nights = 0
        var alarmed = 0
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
    }

    let contenders: [Contender]
    let sources: [NoiseCapture]
    private(set) var nights: [Key: NightTally] = [:]
    private(set) var drags: [Key: DragTally] = [:]
    /// Lower bound per receiver and speed: time from exit until the true position stands
    /// beyond the radius by twice the noise.
    private(set) var bounds: [Key: [Double]] = [:]
    private(set) var noise: [ReceiverProfile: [Double]] = [:]
    private(set) var fixesReplayed = 0

    init(contenders: [Contender], sources: [NoiseCapture]) {
        self.contenders = contenders
        self.sources = sources
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
                let s = Scenario(kind: .night, profile: profile, margin: margin,
                                 seed: DetectionBench.seed(1, tag, UInt64(i)), sources: sources)
                noise[profile, default: []].append(s.noiseRMS)
                fixesReplayed += s.readings.count
                for (c, contender) in contenders.enumerated() {
                    let key = Key(contender: c, profile: profile, knots: nil)
                    let alarm = contender.firstAlarm(readings: s.readings, offsets: s.measured, anchor: s.anchor, radius: s.radius)
                    nights[key, default: NightTally()].nights += 1
                    if alarm != nil { nights[key, default: NightTally()].alarmed += 1 }
                }
            }
            progress("nights \(profile.label): \(plan.nights[profile] ?? 0)")
            for knots in plan.speeds {
                for i in 0..<(plan.dragsPerSpeed[profile] ?? 0) {
                    let s = Scenario(kind: .drag(knots: knots), profile: profile, margin: margin,
                                     seed: DetectionBench.seed(2, tag, UInt64(knots * 10), UInt64(i)), sources: sources)
                    fixesReplayed += s.readings.count
                    guard let exit = s.exitT, let breakout = s.breakoutT else { continue }
                    let bkey = Key(contender: -1, profile: profile, knots: knots)
                    if let b = s.boundT { bounds[bkey, default: []].append(b - exit) }
                    for (c, contender) in contenders.enumerated() {
                        let key = Key(contender: c, profile: profile, knots: knots)
                        var tally = drags[key] ?? DragTally()
                        tally.runs += 1
                        let alarm = contender.firstAlarm(readings: s.readings, offsets: s.measured, anchor: s.anchor, radius: s.radius)
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
                progress("drags \(profile.label) \(knots) kn: \(plan.dragsPerSpeed[profile] ?? 0)")
            }
        }
    }
}
