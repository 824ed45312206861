import WatchCore

/// The search that chose the watch's defaults: a grid of evidence-rule settings, each replayed
/// over the same simulated nights (false alarms) and 0.5 kn drags (delay), on the good receiver
/// at a 10 m margin and the poor one at 20 m.
enum Tuning {
    struct Row {
        var settings: WatchSettings
        var label: String
        var falseGood = 0, falsePoor = 0, falsePoorGoodEph = 0
        var delaysGood: [Double] = [], delaysPoor: [Double] = []
        var missedGood = 0, missedPoor = 0
    }

    static func run(sources: [NoiseCapture], nights: Int, drags: Int, rate: Int, grid: [(label: String, settings: WatchSettings)]) -> [Row] {
        var rows = grid.map { Row(settings: $0.settings, label: $0.label) }
        for (profile, margin) in [(ReceiverProfile.good(rate), 10.0), (.poor(rate), 20.0), (.poorGoodEph(rate), 20.0)] {
            let tag = profile.seedTag
            for i in 0..<nights {
                let s = Scenario(kind: .night, profile: profile, margin: margin,
                                 seed: DetectionBench.seed(1, tag, UInt64(i)), sources: sources)
                for r in rows.indices {
                    let c = Contender.box(rows[r].label, rows[r].settings)
                    if c.firstAlarm(readings: s.readings, offsets: s.measured, anchor: s.anchor, radius: s.radius) != nil {
                        if profile.quality == .good { rows[r].falseGood += 1 } else if profile.ephFollowsNoise { rows[r].falsePoor += 1 } else { rows[r].falsePoorGoodEph += 1 }
                    }
                }
            }
            for i in 0..<(profile.ephFollowsNoise ? drags : 0) {
                let s = Scenario(kind: .drag(knots: 0.5), profile: profile, margin: margin,
                                 seed: DetectionBench.seed(2, tag, 5, UInt64(i)), sources: sources)
                guard let exit = s.exitT, let breakout = s.breakoutT else { continue }
                for r in rows.indices {
                    let c = Contender.box(rows[r].label, rows[r].settings)
                    let a = c.firstAlarm(readings: s.readings, offsets: s.measured, anchor: s.anchor, radius: s.radius)
                    let good = profile.quality == .good
                    if let a, a >= breakout, a <= exit + Scenario.dragFollow {
                        if good { rows[r].delaysGood.append(a - exit) } else { rows[r].delaysPoor.append(a - exit) }
                    } else if good { rows[r].missedGood += 1 } else { rows[r].missedPoor += 1 }
                }
            }
        }
        return rows
    }
}
