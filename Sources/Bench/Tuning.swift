import Posix
import Recordings
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

    /// Candidate evidence rules, through the real watch core: confirmation (s), fastest (s),
    /// deadband (wanders), noise prior (m), swing span (s).
    static func grid() -> [(label: String, settings: WatchSettings)] {
        func rule(_ confirmation: Double, _ fastest: Double, _ deadband: Double, prior: Double = 5,
                  swing: Double = 300) -> (label: String, settings: WatchSettings) {
            var s = WatchSettings()
            s.confirmation = .seconds(confirmation)
            s.fastest = .seconds(fastest)
            s.deadband = deadband
            s.noisePrior = Meters(prior)
            s.swingSpan = .seconds(swing)
            return ("c\(Format.fixed(confirmation)) f\(Format.fixed(fastest)) k\(Format.fixed(deadband, 1)) p\(Format.fixed(prior)) s\(Format.fixed(swing))", s)
        }
        var out: [(label: String, settings: WatchSettings)] = []
        let list = Process.environment("ANCHOR_TUNE_GRID") ?? "5,3,0.5 5,3,0.75 5,2.5,1 10,5,0.75"
        for item in list.split(separator: " ") {
            let parts = item.split(separator: ",")
            let v = parts.filter { !$0.contains("=") }.compactMap { Double($0) }
            guard v.count >= 3 else { continue }
            var r = rule(v[0], v[1], v[2], prior: v.count > 3 ? v[3] : 5, swing: v.count > 4 ? v[4] : 300)
            // Named knobs of the Doppler and the weak fixes: vk deadband, vf fastest (s), vt
            // threshold (spreads), vm minimum (m/s), vs span (s), vp prior (m/s), ww weak weight,
            // vi independence, vr recent span (s); of the position rule (for ANCHOR_BOX_SET):
            // db deadband, cf confirmation (s), fa fastest (s), np noise prior span (s), nq noise
            // prior (m), nf noise floor (m); of persistence: pf floor (s), pm margin over the
            // longest quick outing, pd deadband.
            for named in parts where named.contains("=") {
                guard let tag = apply(named, to: &r.settings) else { continue }
                r.label += " \(tag)"
            }
            out.append(r)
        }
        return out
    }

    /// One named knob ("vt=3") applied to `settings`; its label, or nil if it names none.
    static func apply(_ named: Substring, to settings: inout WatchSettings) -> String? {
        let kv = named.split(separator: "=")
        // "off=GUARD": a guard of the rule removed (WatchGuard), for the check's must-fail runs.
        if kv.count == 2, kv[0] == "off", let g = WatchGuard(rawValue: String(kv[1])) {
            settings.guardsOff.insert(g)
            return "off-\(g.rawValue)"
        }
        guard kv.count == 2, let x = Double(kv[1]) else { return nil }
        var s = settings
        switch kv[0] {
        case "vk": s.dopplerDeadband = x
        case "vf": s.dopplerFastest = .seconds(x)
        case "vt": s.dopplerThreshold = x
        case "vm": s.dopplerMinimum = x
        case "vs": s.dopplerSpan = .seconds(x)
        case "vp": s.dopplerPrior = x
        case "ww": s.weakWeight = x
        case "vi": s.dopplerIndependence = x
        case "vr": s.dopplerRecentSpan = .seconds(x)
        case "tm": s.dopplerTrustMargin = x
        case "vd": s.dopplerSlowing = x
        case "vw": s.dopplerSlowingSpan = .seconds(x)
        case "vq": s.dopplerSlowingShare = x
        case "vh": s.dopplerSlowingHolds = x != 0
        case "ts": s.dopplerTrustSpan = .seconds(x)
        case "rs": s.dopplerReachSpan = .seconds(x)
        case "ws": s.wanderReachSpan = .seconds(x)
        case "wo": s.wanderOutingSpan = .seconds(x)
        case "wq": s.wanderQuickSpan = .seconds(x)
        case "wt": s.wanderTail = x
        case "qb": s.turnBack = x
        case "qs": s.turnSpan = .seconds(x)
        case "pf": s.persistFloor = .seconds(x)
        case "pm": s.persistMargin = x
        case "pd": s.persistDeadband = x
        case "pg": s.persistGive = x
        case "pb": s.persistBridge = .seconds(x)
        case "pz": s.persistLeast = x
        case "pv": s.persistSpeed = x
        case "pw": s.persistSpeedShare = x
        case "pn": s.persistSpeedNow = x
        case "db": s.deadband = x
        case "js": s.jumpSpeed = x
        case "jk": s.jumpSlack = x
        case "jp": s.jumpStepPrior = x
        case "wd": s.weakDeadband = x
        case "cf": s.confirmation = .seconds(x)
        case "fa": s.fastest = .seconds(x)
        case "np": s.noisePriorSpan = .seconds(x)
        case "nq": s.noisePrior = Meters(x)
        case "nf": s.noiseFloor = Meters(x)
        default: return nil
        }
        settings = s
        return "\(kv[0])\(Format.fixed(x, 2))"
    }

    static func run(sources: [NoiseCapture], nights: Int, drags: Int, rate: Int, grid: [(label: String, settings: WatchSettings)]) -> [Row] {
        var rows = grid.map { Row(settings: $0.settings, label: $0.label) }
        // ANCHOR_TUNE_EACH: which night rang, when, under which candidate.
        let each = Process.environment("ANCHOR_TUNE_EACH") != nil
        // ANCHOR_TUNE_ONLY=31,354: only these nights of each class (to look at named rings again);
        // ANCHOR_TUNE_TRACE=1: each ring's readings before it (`RegressionCheck.trace`).
        let only = Process.environment("ANCHOR_TUNE_ONLY").map { Set($0.split(separator: ",").compactMap { Int($0) }) }
        let traced = Process.environment("ANCHOR_TUNE_TRACE") != nil
        for (profile, margin) in [(ReceiverProfile.good(rate), 10.0), (.poor(rate), 20.0), (.poorGoodEph(rate), 20.0)] {
            let tag = profile.seedTag
            for i in 0..<nights where only?.contains(i) ?? true {
                let s = DetectionBench.mainNight(profile, margin: margin, i, sources: sources)
                // ANCHOR_TUNE_WANDER: what the first rule measured of each night's receiver, beside the truth.
                if Process.environment("ANCHOR_TUNE_WANDER") != nil {
                    var o = Replay.Options()
                    o.settings = rows[0].settings
                    o.radius = Meters(s.radius)
                    o.anchor = s.anchor
                    o.arm = true
                    let w = Replay.run(s.readings, options: o).watch
                    let advice = w.lastReading.flatMap { w.status(at: $0.received).radiusAdvice } ?? "-"
                    print("wander \(profile.label) night \(i): noise rms \(Format.fixed(s.noiseRMS, 1)) m, swing \(Format.fixed(s.swingRadius, 1)) m; measured sigma \(Format.fixed(w.noise.sigma(o.settings), 1)) m, radial speed spread \(Format.fixed(w.noise.radialSigma(o.settings), 3)) m/s, speed miss/move \(Format.fixed(w.noise.speedMiss, 4)) / \(Format.fixed(w.noise.moveSquare, 4)), swing \(Format.fixed(w.noise.swing, 1)) m; advice: \(advice)")
                }
                for r in rows.indices {
                    let c = Contender.box(rows[r].label, rows[r].settings)
                    if let at = c.firstAlarm(readings: s.readings, offsets: s.measured, anchor: s.anchor, radius: s.radius) {
                        if each { print("rang: \(profile.label) night \(i) at \(Format.fixed(at)) s: \(rows[r].label)") }
                        if traced { RegressionCheck.trace(s, rows[r].settings, at) }
                        if profile.quality == .good { rows[r].falseGood += 1 } else if profile.ephFollowsNoise { rows[r].falsePoor += 1 } else { rows[r].falsePoorGoodEph += 1 }
                    }
                }
            }
            printError("  \(profile.label): nights done, \(rows.map { "\($0.falseGood + $0.falsePoor + $0.falsePoorGoodEph)" }.joined(separator: " ")) false")
            for i in 0..<(profile.ephFollowsNoise ? drags : 0) {
                let knots = Process.environment("ANCHOR_TUNE_KNOTS").flatMap { Double($0) } ?? 0.5
                let s = Scenario(kind: .drag(knots: knots), profile: profile, margin: margin,
                                 seed: DetectionBench.seed(2, tag, UInt64(knots * 10), UInt64(i)), sources: sources)
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
