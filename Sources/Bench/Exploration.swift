import WatchCore

/// The fast search behind `--tune`: each scenario reduced once to its fixes' times, distances
/// and reported accuracies, then a model of the box's evidence rule (and variants the core
/// doesn't have yet) run over those arrays. It skips the watch's ticks between fixes, so a
/// verdict lands up to one fix late; the chosen settings are then checked through the real
/// watch core (`--tune` and the detection benchmark), never taken from here alone.
enum Exploration {
    /// One scenario as the rule sees it.
    struct Series {
        var t: [Double]
        /// Distance to the anchor; negative when the reading had no usable position.
        var d: [Float]
        var eph: [Float]
        var radius: Double
        var breakoutT: Double?
        var exitT: Double?

        init(_ s: Scenario) {
            t = s.readings.map(\.received.seconds)
            d = s.measured.map { $0.map { Float($0.length) } ?? -1 }
            eph = s.readings.map { Float($0.accuracy?.value ?? 0) }
            radius = s.radius
            breakoutT = s.breakoutT
            exitT = s.exitT
        }
    }

    /// The rule's parameters: the core's window, confirmation, majority, accuracy weight, and
    /// drift: while the least-squares slope of the distance over `slopeSpan` is at least
    /// `slopeMin` m/s (the boat moving steadily away), progress fills over `fastConfirmation`
    /// instead of `confirmation` (0 span: no drift evidence).
    struct Rule: Hashable {
        var window = 10.0, confirmation = 5.0, majority = 0.8, weight = 0.2
        var slopeSpan = 0.0, slopeMin = 0.0, fastConfirmation = 0.0
        var minFixes = 3, stale = 10.0, accuracyLimitFraction = 2.0

        var label: String {
            "w\(Format.fixed(window)) c\(Format.fixed(confirmation)) m\(Format.fixed(majority, 2)) a\(Format.fixed(weight, 2))"
                + (slopeSpan > 0 ? " drift \(Format.fixed(slopeSpan)) s>\(Format.fixed(slopeMin, 2)) c\(Format.fixed(fastConfirmation))" : "")
        }

        /// When the rule first rings on this series, or nil.
        func firstAlarm(_ s: Series) -> Double? {
            var ts: [Double] = [], outs: [Bool] = []
            var head = 0, outside = 0
            var st: [Double] = [], sd: [Double] = []
            var shead = 0
            var sumT = 0.0, sumD = 0.0, sumTT = 0.0, sumTD = 0.0
            var lastUsable = -1e9
            var progress: Double?
            var lastT = 0.0
            let limit = s.radius, ephLimit = Float(s.radius * accuracyLimitFraction)
            ts.reserveCapacity(s.t.count); outs.reserveCapacity(s.t.count)
            for i in s.t.indices {
                let t = s.t[i], d = s.d[i]
                if t - lastUsable > stale { progress = nil }
                guard d >= 0, s.eph[i] <= ephLimit else { continue }
                lastUsable = t
                let o = Double(d) - weight * Double(s.eph[i]) > limit
                ts.append(t); outs.append(o)
                if o { outside += 1 }
                while head < ts.count, t - ts[head] > window {
                    if outs[head] { outside -= 1 }
                    head += 1
                }
                let count = ts.count - head
                let majority = count >= minFixes && Double(outside) >= self.majority * Double(count)
                var rate = confirmation > 0 ? 1 / confirmation : 1e9
                if slopeSpan > 0 {
                    let x = t - s.t[0], y = Double(d)
                    st.append(x); sd.append(y)
                    sumT += x; sumD += y; sumTT += x * x; sumTD += x * y
                    while shead < st.count, x - st[shead] > slopeSpan {
                        let a = st[shead], b = sd[shead]
                        sumT -= a; sumD -= b; sumTT -= a * a; sumTD -= a * b
                        shead += 1
                    }
                    let n = Double(st.count - shead)
                    let sxx = sumTT - sumT * sumT / n
                    let slope = n >= 3 && sxx > 1e-9 ? (sumTD - sumT * sumD / n) / sxx : 0
                    if slope >= slopeMin { rate = fastConfirmation > 0 ? 1 / fastConfirmation : 1e9 }
                }
                defer { lastT = t }
                guard majority else { progress = nil; continue }
                let p = progress.map { $0 + (t - lastT) * rate } ?? 0
                progress = p
                if p >= 1 { return t }
            }
            return nil
        }
    }

    struct Result {
        var rule: Rule
        var falseAlarms: [Int]
        var delays: [[Double]]
        var missed: [Int]
    }

    /// The night sets (false alarms) and drag sets (delays after the true exit) of the search.
    struct Sets {
        var nightNames: [String] = []
        var nights: [[Series]] = []
        var dragNames: [String] = []
        var drags: [[Series]] = []
    }

    static func sets(sources: [NoiseCapture], nights: Int, drags: Int) -> Sets {
        var sets = Sets()
        let cells: [(ReceiverProfile, Double)] = [(.good(1), 10), (.poor(1), 20), (.poorGoodEph(1), 20)]
        for (profile, margin) in cells {
            sets.nightNames.append("\(profile.label), \(Format.fixed(margin)) m")
            sets.nights.append((0..<nights).map { i in
                Series(DetectionBench.mainNight(profile, margin: margin, i, sources: sources))
            })
        }
        for (profile, margin, knots) in [(ReceiverProfile.good(1), 10.0, 0.5), (.poor(1), 20, 0.5), (.good(1), 10, 0.2)] {
            sets.dragNames.append("\(Format.fixed(knots, 1)) kn \(profile.label)")
            sets.drags.append((0..<drags).map { i in
                Series(Scenario(kind: .drag(knots: knots), profile: profile, margin: margin,
                                seed: DetectionBench.seed(2, profile.seedTag, UInt64(knots * 10), UInt64(i)), sources: sources))
            })
        }
        return sets
    }

    static func evaluate(_ rule: Rule, _ sets: Sets) -> Result {
        let falseAlarms = sets.nights.map { $0.reduce(0) { $0 + (rule.firstAlarm($1) != nil ? 1 : 0) } }
        var delays: [[Double]] = [], missed: [Int] = []
        for set in sets.drags {
            var ds: [Double] = [], miss = 0
            for s in set {
                guard let exit = s.exitT, let breakout = s.breakoutT else { continue }
                if let a = rule.firstAlarm(s), a >= breakout, a <= exit + Scenario.dragFollow {
                    ds.append(a - exit)
                } else {
                    miss += 1
                }
            }
            delays.append(ds); missed.append(miss)
        }
        return Result(rule: rule, falseAlarms: falseAlarms, delays: delays, missed: missed)
    }

    static func grid() -> [Rule] {
        var out: [Rule] = []
        for window in [10.0, 20] {
            for majority in [0.6, 0.8] {
                for weight in [0.0, 0.1] {
                    for confirmation in [30.0, 45, 60, 90] {
                        out.append(Rule(window: window, confirmation: confirmation, majority: majority, weight: weight))
                        for span in [20.0, 30] {
                            for minSlope in [0.0, 0.05, 0.1] {
                                for fast in [10.0, 15, 20] {
                                    out.append(Rule(window: window, confirmation: confirmation, majority: majority, weight: weight,
                                                    slopeSpan: span, slopeMin: minSlope, fastConfirmation: fast))
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    static func table(_ results: [Result], _ sets: Sets) -> String {
        let header = ["rule"] + sets.nightNames.map { "false, \($0)" } + sets.dragNames.map { "\($0): med / p95 / worst; missed" }
        let rows = results.map { r -> [String] in
            [r.rule.label] + r.falseAlarms.map { "\($0)" } + zip(r.delays, r.missed).map { d, m in
                let p = Percentiles(d)
                return "\(Format.optional(p.median)) / \(Format.optional(p.p95)) / \(Format.optional(p.worst)); \(m)"
            }
        }
        return Format.table(header, rows)
    }
}
