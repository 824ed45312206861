import WatchCore

/// `anchor-bench --anchor`: how soon and how well the watch finds the anchor from the swing.
///
/// Simulated nights (`Scenario`: `SwingModel`'s swing, wind wander and fronts, `NoiseTrack`'s
/// real receiver error, gaps) replayed through the real `Watch`, marked one of two ways:
/// - late: `mark` (here) 10 minutes after the drop, the boat lying a rode's length downwind;
/// - at the drop: the antenna's position at the drop, `bowToGPS` short of the anchor.
/// Every minute it records the swing estimate's error (its centre against the true anchor),
/// whether it has settled, whether the truth lies inside its stated uncertainty, and whether a
/// move of the mark is offered and where to. Drags (0.5 kn) check that a drag is not offered
/// as a new anchor. Nights are grouped by the arc the boat truly swept (wind shifts), since the
/// arc, not the time, is what shows the centre.
enum AnchorEstimateBench {
    enum Mark: String { case late = "late mark (10 min)", drop = "mark at the drop" }

    struct Night {
        var arc: Double
        var settleMinutes: Double?
        var offerMinutes: Double?
        /// The offered centre's distance from the true anchor, at the first offer.
        var offerError: Double?
        /// Distance from the mark to the true anchor, and what taking the first offer would leave.
        var markError: Double
        /// Error of the settled estimate at 30 min, 1 h, 2 h, 4 h, 8 h after the mark.
        var errorAt: [Double?]
        var settledSamples = 0
        var coveredSamples = 0
        /// Offers made that would move the mark further from the anchor than it is.
        var worseOffers = 0
    }

    static let checkpoints: [Double] = [1800, 3600, 7200, 14_400, 28_200]

    /// The scenario's bow-to-antenna offset: its swing model rebuilt from the same seed, the
    /// way `Scenario.init` draws it (three forks, then the model).
    static func bowToGPS(seed: UInt64) -> Double {
        var rng = SplitMix64(seed: seed)
        for salt: UInt64 in 1...3 { _ = rng.fork(salt) }
        return SwingModel(rng: &rng, nightSeconds: Scenario.nightSeconds).bowToGPS
    }

    static func night(_ scenario: Scenario, mark: Mark, bowToGPS: Double) -> Night {
        var watch = Watch(settings: { var s = WatchSettings(); s.radius = Meters(scenario.radius); return s }())
        let markAt = mark == .late ? 600.0 : 5.0
        let anchor = scenario.anchor
        var marked = false
        var night = Night(arc: 0, markError: 0, errorAt: Array(repeating: nil, count: checkpoints.count))
        var nextSample = 0.0
        var checkpoint = 0
        // The true arc swept: bearings of the readings from the anchor, in 10 degree bins.
        var bins = [Bool](repeating: false, count: 36)
        for reading in scenario.readings {
            let t = reading.received.seconds
            _ = watch.handle(.reading(reading), at: reading.received)
            if let p = reading.position, t > 120 {
                bins[min(Int(Geodesy.bearing(from: anchor, to: p) / 10), 35)] = true
            }
            if !marked, t >= markAt, let here = watch.hereFix(at: reading.received) {
                let request: MarkRequest
                if mark == .late {
                    request = .here
                } else {
                    // The antenna at the drop: the bow is over the anchor, the antenna aft of it.
                    let d = max(Geodesy.distance(anchor, here).value, 0.1)
                    let toward = Geodesy.bearing(from: anchor, to: here)
                    request = .at(Geodesy.destination(from: anchor, bearing: toward,
                                                      distance: Meters(min(bowToGPS, d))))
                }
                let actions = watch.handle(.decision(.mark(request)), at: reading.received)
                guard actions.contains(where: { if case .accepted = $0 { true } else { false } }) else { continue }
                marked = true
                night.markError = Geodesy.distance(watch.anchor!, anchor).value
                nextSample = t + 60
            }
            guard marked, t >= nextSample else { continue }
            nextSample += 60
            let since = t - markAt
            let status = watch.status(at: reading.received)
            if let e = status.swing, e.settled {
                let error = Geodesy.distance(e.centre, anchor).value
                if night.settleMinutes == nil { night.settleMinutes = since / 60 }
                night.settledSamples += 1
                if error <= e.uncertainty.value { night.coveredSamples += 1 }
                while checkpoint < checkpoints.count, since >= checkpoints[checkpoint] {
                    night.errorAt[checkpoint] = error
                    checkpoint += 1
                }
            } else {
                while checkpoint < checkpoints.count, since >= checkpoints[checkpoint] { checkpoint += 1 }
            }
            if let offer = status.swingOffer {
                let error = Geodesy.distance(offer.estimate.centre, anchor).value
                if night.offerMinutes == nil {
                    night.offerMinutes = since / 60
                    night.offerError = error
                }
                if error > night.markError { night.worseOffers += 1 }
            }
        }
        night.arc = Double(bins.filter { $0 }.count) * 10
        return night
    }

    struct DragRun {
        /// Offers standing after the breakout whose centre lies more than 10 m from the anchor
        /// as set: the estimate following the drag.
        var followed: Bool
        var offersAfterBreakout: Int
    }

    static func drag(_ scenario: Scenario) -> DragRun {
        var watch = Watch(settings: { var s = WatchSettings(); s.radius = Meters(scenario.radius); return s }())
        var marked = false
        var run = DragRun(followed: false, offersAfterBreakout: 0)
        var nextSample = 0.0
        for reading in scenario.readings {
            let t = reading.received.seconds
            _ = watch.handle(.reading(reading), at: reading.received)
            if !marked, t >= 300, watch.hereFix(at: reading.received) != nil {
                _ = watch.handle(.decision(.mark(.here)), at: reading.received)
                marked = watch.anchor != nil
                nextSample = t + 60
            }
            guard marked, t >= nextSample, let breakout = scenario.breakoutT else { continue }
            nextSample += 60
            if t > breakout + 60, let offer = watch.swingOffer {
                run.offersAfterBreakout += 1
                if Geodesy.distance(offer.estimate.centre, scenario.anchor).value > 10 { run.followed = true }
            }
        }
        return run
    }

    /// The whole benchmark's text (the section for Docs/benchmarks.md).
    static func run(sources: [NoiseCapture], nights: Int, drags: Int, progress: (String) -> Void) -> String {
        var out = "## Where the anchor is\n\n"
        out += "Replayed through the watch core: \(nights) simulated nights of 8 h per receiver and mark, "
        out += "\(drags) drags at 0.5 kn per receiver; the estimate sampled once a minute after the mark.\n\n"
        for profile in [ReceiverProfile.good(1), .poor(1)] {
            for mark in [Mark.late, .drop] {
                var rows: [Night] = []
                for i in 0..<nights {
                    let seed = 0xA7C4_0000 &+ UInt64(i) &* 7919 &+ profile.seedTag
                    let scenario = Scenario(kind: .night, profile: profile, margin: 10, seed: seed, sources: sources)
                    rows.append(night(scenario, mark: mark, bowToGPS: bowToGPS(seed: seed)))
                }
                progress("\(profile.label), \(mark.rawValue): \(nights) nights")
                out += "### \(profile.label) receiver, \(mark.rawValue)\n\n"
                out += table(rows) + "\n"
            }
            var followed = 0, offers = 0
            for i in 0..<drags {
                let seed = 0xD4A6_0000 &+ UInt64(i) &* 104_729 &+ profile.seedTag
                let scenario = Scenario(kind: .drag(knots: 0.5), profile: profile, margin: 10, seed: seed, sources: sources)
                let r = drag(scenario)
                if r.followed { followed += 1 }
                offers += r.offersAfterBreakout
            }
            progress("\(profile.label): \(drags) drags")
            out += "Drags, \(profile.label), 0.5 kn after 10 to 30 minutes of holding: \(followed) of \(drags) "
            out += "ever offered a centre more than 10 m from the anchor as set after the breakout "
            out += "(\(offers) minute samples with any offer standing after the breakout).\n\n"
        }
        out += cost(sources: sources)
        return out
    }

    static func table(_ nights: [Night]) -> String {
        let groups: [(String, (Night) -> Bool)] = [
            ("arc under 90°", { $0.arc < 90 }),
            ("arc 90° to 180°", { $0.arc >= 90 && $0.arc < 180 }),
            ("arc 180° or more", { $0.arc >= 180 }),
            ("all", { _ in true }),
        ]
        var rows: [[String]] = []
        for (label, keep) in groups {
            let g = nights.filter(keep)
            guard !g.isEmpty else { continue }
            let settled = g.compactMap(\.settleMinutes)
            let offered = g.compactMap(\.offerMinutes)
            let settle = Percentiles(settled), offer = Percentiles(offered)
            let offerError = Percentiles(g.compactMap(\.offerError))
            var row = [label, "\(g.count)", "\(settled.count)",
                       "\(Format.optional(settle.median)) / \(Format.optional(settle.p95))",
                       "\(offered.count)", "\(Format.optional(offer.median))",
                       "\(Format.optional(offerError.median, 1)) / \(Format.optional(offerError.p95, 1))"]
            for k in 0..<checkpoints.count {
                let e = Percentiles(g.compactMap { $0.errorAt[k] })
                row.append(e.isEmpty ? "-" : "\(Format.fixed(e.median!, 1)) / \(Format.fixed(e.p95!, 1))")
            }
            let samples = g.reduce(0) { $0 + $1.settledSamples }, covered = g.reduce(0) { $0 + $1.coveredSamples }
            row.append(samples == 0 ? "-" : "\(Format.fixed(100 * Double(covered) / Double(samples)))%")
            row.append("\(g.filter { $0.worseOffers > 0 }.count)")
            rows.append(row)
        }
        let mark = Percentiles(nights.map(\.markError))
        return "Mark's own error: median \(Format.fixed(mark.median ?? 0, 1)) m, p95 \(Format.fixed(mark.p95 ?? 0, 1)) m.\n\n"
            + Format.table(["nights", "n", "settled", "settle min (med / p95)", "offered", "offer min (med)",
                            "offer error m (med / p95)", "error 30 min", "error 1 h", "error 2 h", "error 4 h", "error 8 h",
                            "truth inside stated uncertainty", "nights with an offer worse than the mark"], rows)
    }

    /// The estimator's own cost per reading on this machine: one night's readings through
    /// `SwingEstimator.add` (the cell update and its share of the fits), measured, not asserted.
    static func cost(sources: [NoiseCapture]) -> String {
        let scenario = Scenario(kind: .night, profile: .good(10), margin: 10, seed: 0xC057, sources: sources)
        let points = scenario.readings.compactMap { r in r.position.map { ($0, r.received) } }
        var best = Double.infinity
        var cells = 0
        for _ in 0..<3 {
            var e = SwingEstimator()
            let start = monotonicSeconds()
            for (p, t) in points { e.add(p, at: t) }
            best = min(best, monotonicSeconds() - start)
            cells = e.cellCount
        }
        return "Cost: \(points.count) readings of one 8 h night at 10 Hz through SwingEstimator.add in "
            + "\(Format.fixed(best * 1000)) ms (best of 3), \(Format.fixed(best / Double(points.count) * 1e9)) ns per reading, "
            + "\(cells) cells held at the end (at most \(SwingEstimator.Settings().maxCells)).\n"
    }
}
