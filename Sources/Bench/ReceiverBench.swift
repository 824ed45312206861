import Posix
import WatchCore

/// `anchor-bench --receivers tune|held-out`: the first-principles receivers (`ReceiverModel`)
/// whose speed is noisy and moves with their position, at their 20 m margin: quiet nights (every
/// ring false) and drags, through the rule of `--rule` (the box by default). The two seed sets
/// never overlap: `tune` is what a setting may be chosen on, `held-out` what it is measured on.
/// `--first K` starts at night K, so a long run can be split across processes.
enum ReceiverBench {
    /// 20 m; `ANCHOR_RECEIVERS_MARGIN=M` judges the modelled receivers at M instead (a stress:
    /// the same seeds, the alert radius closer to where the boat lies).
    static let margin = Process.environment("ANCHOR_RECEIVERS_MARGIN").flatMap { Double($0) } ?? 20.0
    static let speeds = [0.2, 0.5, 1.0, 2.0, 4.0]

    static func seedSet(_ name: String) -> UInt64? { name == "tune" ? 7 : name == "held-out" ? 8 : nil }

    /// The receivers: the models at 20 m, and by name the captures' good (10 m) and poor (20 m)
    /// 1 Hz receivers beside them.
    static func cells(_ names: [String]) -> [(profile: ReceiverProfile, margin: Double)]? {
        var out: [(profile: ReceiverProfile, margin: Double)] = []
        for name in names {
            if name == "good" { out.append((.good(1), 10)) } else if name == "poor" { out.append((.poor(1), 20)) }
            else if let m = ReceiverModel.named(name) { out.append((.modelled(m), margin)) } else { return nil }
        }
        return out
    }

    static func run(_ contender: Contender, cells: [(profile: ReceiverProfile, margin: Double)], sources: [NoiseCapture], seeds set: UInt64,
                    nights: Int, first: Int, drags: Int, progress: (String) -> Void) -> String {
        var rows: [[String]] = []
        let reachProbe = Process.environment("ANCHOR_RECEIVERS_REACH") != nil || Process.environment("ANCHOR_RECEIVERS_REACH_AT") != nil
        for (profile, margin) in cells {
            let name = profile.label
            var reaches: [Double] = []
            var rang: [Int] = [], rms: [Double] = [], speedRMS: [Double] = [], fixes = 0
            for i in first..<(first + nights) {
                let s = Scenario(kind: .night, profile: profile, margin: margin,
                                 seed: DetectionBench.seed(set, profile.seedTag, 1, UInt64(i)), sources: sources)
                fixes += s.readings.count
                rms.append(s.noiseRMS)
                speedRMS.append(s.speedNoiseRMS)
                if let t = contender.run(s).firstAlarm {
                    rang.append(i)
                    if Process.environment("ANCHOR_RECEIVERS_TRACE") == "\(i)", case .box(let st) = contender.kind { RegressionCheck.trace(s, st, t) }
                    progress("\(name) night \(i) rang at \(Format.fixed(t)) s")
                }
                if reachProbe, case .box(let st) = contender.kind {
                    // ANCHOR_RECEIVERS_REACH: what the watch learnt of the speed by the night's end.
                    // ANCHOR_RECEIVERS_REACH_AT=S: what it had learnt S s into the night instead.
                    let upTo = Process.environment("ANCHOR_RECEIVERS_REACH_AT").flatMap { Double($0) } ?? .infinity
                    let w = Contender.replay(s.readings.filter { $0.received.seconds <= upTo }, settings: st, anchor: s.anchor, radius: s.radius, restore: nil).watch
                    reaches.append(w.noise.speedReach)
                    // The speed's miss over the positions' move (mean squares) at lag 1, then 2 to
                    // 10 s: the independence test's ratios, and the smallest of them.
                    let n = w.noise
                    let ratios = [n.speedMiss / max(n.moveSquare, 1e-9)]
                        + n.lagMiss.indices.map { n.lagMiss[$0] / max(n.lagMoveSquare[$0], 1e-9) }
                    progress("\(name) night \(i): dep lag1 \(Format.fixed(ratios[0], 2)) lags \(ratios.dropFirst().map { Format.fixed($0, 2) }.joined(separator: " ")) min \(Format.fixed(ratios.min() ?? 0, 2))")
                    progress("\(name) night \(i): reach \(Format.fixed(w.noise.speedReach, 2)) m/s, spread \(Format.fixed(w.noise.radialSigma(st), 3)), independent \(w.noise.speedIndependent(st)); wander reach \(Format.fixed(w.noise.wanderReach, 1)) m, sigma \(Format.fixed(w.noise.sigma(st), 1)) m, usual accuracy \(Format.fixed(w.noise.usualAccuracy ?? 0, 1)) m, level \(Format.fixed(w.noise.level ?? 0, 1)) m, radius \(Format.fixed(s.radius, 1)) m")
                }
            }
            var cells: [String] = []
            // ANCHOR_RECEIVERS_EACH: each drag's alarm after the true exit, to compare rules drag by
            // drag; ANCHOR_RECEIVERS_DRAG=KNOTS:N traces one (0.5:36).
            let each = Process.environment("ANCHOR_RECEIVERS_EACH") != nil
            let traced = Process.environment("ANCHOR_RECEIVERS_DRAG")
            for knots in speeds {
                var delays: [Double] = [], missed = 0
                for i in 0..<drags {
                    let s = Scenario(kind: .drag(knots: knots), profile: profile, margin: margin,
                                     seed: DetectionBench.seed(set, profile.seedTag, 2, UInt64(knots * 10), UInt64(i)), sources: sources)
                    guard let exit = s.exitT, let breakout = s.breakoutT else { continue }
                    let a = contender.run(s).firstAlarm
                    if let a, a >= breakout, a <= exit + Scenario.dragFollow { delays.append(a - exit) } else { missed += 1 }
                    if traced == "\(Format.fixed(knots, 1)):\(i)", let a, case .box(let st) = contender.kind {
                        RegressionCheck.trace(s, st, a)
                    }
                    if each {
                        progress("\(name) \(Format.fixed(knots, 1)) kn drag \(i): \(a.map { Format.fixed($0 - exit) } ?? "missed")")
                    }
                }
                let p = Percentiles(delays)
                cells.append(drags == 0 ? "-" : "\(Format.optional(p.median)) / \(Format.optional(p.worst))" + (missed > 0 ? ", \(missed) missed" : ""))
            }
            let r = Percentiles(rms), v = Percentiles(speedRMS)
            if reachProbe { let p = Percentiles(reaches); progress("\(name): reach at the night's end median \(Format.optional(p.median, 2)), p95 \(Format.optional(p.p95, 2)), max \(Format.optional(p.worst, 2)) m/s") }
            rows.append([name + (margin == 20 ? "" : ", \(Format.fixed(margin)) m"), "\(rang.count)/\(nights)", rang.isEmpty ? "-" : rang.prefix(12).map(String.init).joined(separator: " "),
                         "\(Format.optional(r.median, 1)) m; \(Format.optional(v.median, 2)) m/s"] + cells)
            progress("\(name): \(rang.count) of \(nights) nights rang (\(fixes) fixes)")
        }
        return Format.table(["Receiver (20 m margin)", "false alarms", "nights that rang", "error RMS; speed error RMS (median)"]
                            + speeds.map { "\(Format.fixed($0, 1)) kn med / worst s" }, rows)
    }
}
