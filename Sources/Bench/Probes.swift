import Posix
import WatchCore
import Recordings

/// Probes behind the verdict's figures in Docs/benchmarks.md ("What the box reaches"), for
/// looking into one finding rather than tabling every rule. Driven by the environment:
///
/// - `ANCHOR_PROBE=N`: the box alone on N poor 1 Hz nights (20 m margin) under dropouts,
///   accuracy bursts and 2D stretches (`ANCHOR_PROBE_CONDITIONS=1,2` picks them), the same seeds
///   as the detection benchmark's condition nights; each night that rang, with the radius advice
///   the status showed at the ring. `ANCHOR_PROBE_FIRST=K` starts at night K (nights never
///   looked at while choosing a setting).
/// - with `ANCHOR_PROBE_TRACE=C,I`: every reading of condition C's night I for the 4 minutes
///   before its first ring, with what the watch measured.
/// - with `ANCHOR_PROBE_KNOTS=K`: N drags at K knots (`ANCHOR_PROBE_PROFILE` poor1, poor10,
///   good1 or good10), the benchmark's seeds: when most fixes of the last 10 s first lie outside
///   the alert radius after the true exit (the earliest the design's "sustained majority" lets
///   Checking start), beside the box's delay and the lower bound.
enum Probes {
    static func run(sources: [NoiseCapture], nights: Int, settings: WatchSettings) {
        let box = Contender.box("probe", settings)
        let pick = Process.environment("ANCHOR_PROBE_CONDITIONS").map { $0.split(separator: ",").compactMap { Int($0) }.filter { (0..<3).contains($0) } } ?? [0, 1, 2]
        for c in pick {
            let condition = [Scenario.Condition.dropouts, .accuracyBursts, .twoD][c]
            let ci = UInt64(c)
            var rang = 0
            let first = Process.environment("ANCHOR_PROBE_FIRST").flatMap { Int($0) } ?? 0
            for i in first..<(first + nights) {
                let s = night(condition, ci, i, sources: sources)
                if let t = box.run(s).firstAlarm {
                    rang += 1
                    var r = armedReplay(s, settings)
                    for reading in s.readings where reading.received.seconds <= t { r.feed(reading) }
                    printError("\(condition.rawValue) night \(i) rang at \(Format.fixed(t)) s; radius \(Format.fixed(s.radius)) rms \(Format.fixed(s.noiseRMS, 1))")
                    printError("  advice at the ring: \(r.watch.status(at: Instant(seconds: t)).radiusAdvice ?? "none")")
                }
            }
            print("\(condition.rawValue): \(rang)/\(nights)")
        }
    }
}

extension Probes {
    /// The detection benchmark's condition night `i` (condition index `ci`), poor 1 Hz at 20 m.
    static func night(_ condition: Scenario.Condition, _ ci: UInt64, _ i: Int, sources: [NoiseCapture]) -> Scenario {
        let profile = ReceiverProfile.poor(1)
        return Scenario(kind: .night, profile: profile, margin: 20,
                        seed: DetectionBench.seed(3, profile.seedTag, ci, UInt64(i)), sources: sources, condition: condition)
    }

    /// A replay marked at the scenario's anchor with its alert radius, armed, no reading fed yet.
    static func armedReplay(_ s: Scenario, _ settings: WatchSettings) -> Replay {
        var options = Replay.Options()
        options.settings = settings
        options.radius = Meters(s.radius)
        options.anchor = s.anchor
        options.arm = true
        return Replay.run([], options: options)
    }

    static func trace(sources: [NoiseCapture], condition: Scenario.Condition, ci: UInt64, night i: Int, settings: WatchSettings) {
        let s = night(condition, ci, i, sources: sources)
        let ring = Contender.box("probe", settings).run(s).firstAlarm ?? 0
        var r = armedReplay(s, settings)
        for (k, reading) in s.readings.enumerated() {
            r.feed(reading)
            let t = reading.received.seconds
            guard t > ring - 240, t <= ring + 1 else { continue }
            let n = r.watch.noise
            let d = s.measured[k].map { Format.fixed($0.length, 1) } ?? "-"
            print("\(Format.fixed(t)) d \(d) true \(Format.fixed(s.truth[k], 1)) R \(Format.fixed(s.radius)) mode \(reading.mode) eph \(reading.accuracy.map { Format.fixed($0.value) } ?? "-") sigma \(Format.fixed(n.sigma(settings), 2)) ws \(Format.fixed(n.weakScale, 2)) level \(Format.fixed(n.level ?? 0, 1)) v \(Format.fixed(n.radialSpeed, 2)) \(r.watch.verdict)")
        }
    }
}

extension Probes {
    /// For drags: when most fixes of the last 10 s first lie outside the radius, after the exit.
    static func majority(sources: [NoiseCapture], drags: Int, knots: Double, settings: WatchSettings) {
        let name = Process.environment("ANCHOR_PROBE_PROFILE") ?? "poor1"
        let profile: ReceiverProfile = name == "good10" ? .good(10) : name == "good1" ? .good(1) : name == "poor10" ? .poor(10) : .poor(1)
        let margin = profile.quality == .good ? 10.0 : 20.0
        var firsts: [Double] = [], boxes: [Double] = [], bounds: [Double] = []
        for i in 0..<drags {
            let s = Scenario(kind: .drag(knots: knots), profile: profile, margin: margin,
                             seed: DetectionBench.seed(2, profile.seedTag, UInt64(knots * 10), UInt64(i)), sources: sources)
            guard let exit = s.exitT else { continue }
            bounds.append((s.boundT ?? 9999) - exit)
            var window: [(Double, Bool)] = []
            var first: Double?
            for (k, r) in s.readings.enumerated() {
                let t = r.received.seconds
                guard let o = s.measured[k] else { continue }
                window.append((t, o.length > s.radius))
                window.removeAll { t - $0.0 >= 10 }
                if t >= exit, first == nil, window.count >= 3, window.filter(\.1).count * 2 > window.count { first = t - exit }
            }
            firsts.append(first ?? 9999)
            boxes.append((Contender.box("probe", settings).run(s).firstAlarm ?? 9999) - exit)
            if Process.environment("ANCHOR_PROBE_DRAG") == "\(i)" {
                RegressionCheck.trace(s, settings, exit + boxes.last!)
            }
            if Process.environment("ANCHOR_PROBE_EACH") != nil {
                let peers = ["ankerwache", "delay-60"].map { slug in
                    "\(slug) \(Format.fixed((Contender.named(slug)!.run(s).firstAlarm ?? 9999) - exit))"
                }
                print("drag \(i): box \(Format.fixed(boxes.last!)), \(peers.joined(separator: ", ")), bound \(Format.fixed(bounds.last!)), most outside \(Format.fixed(firsts.last!))")
            }
        }
        func q(_ a: [Double]) -> String {
            let s = a.sorted()
            return "\(Format.fixed(s[s.count / 2])) / \(Format.fixed(s[min(s.count - 1, Int(0.95 * Double(s.count)))])) / \(Format.fixed(s.last!))"
        }
        print("\(profile.label) \(knots) kn, \(firsts.count) drags: most fixes of 10 s outside after the exit \(q(firsts)); box \(q(boxes)); lower bound \(q(bounds))")
    }
}
