import WatchCore

/// `anchor-bench --swing-settle FIRST..LAST`: the swing estimate on the night of issue 26, one
/// night a seed, through the real `Watch` with its shipped defaults.
///
/// The night: a 28 m swing circle (24 m of reach on 24.7 m of rode in 5 m of water, the antenna
/// 4 m aft of the bow), a good receiver (a slow wander of 2.5 m per axis over 10 minutes, a
/// 0.5 m jitter over 5 s, 3 m reported), the mark taken late (`mark` 10 minutes after the drop,
/// where the boat lies, a rode's length from the anchor), and a front that swings the wind
/// 110 degrees over 20 minutes half way through the 8 h night. Each seed draws the wind (6 to
/// 20 m/s, its direction, the way the front turns), the yaw and the receiver's wander.
///
/// Sampled once a minute after the mark: whether the estimate is settled, its centre's error
/// against the true anchor, and any move offered. A wrong offer is one whose centre lies more
/// than 10 m from the anchor (an offer moves the mark at least 10 m): worse than none.
enum SwingSettleBench {
    struct Night {
        var seed: UInt64
        /// Settled at the night's end; minutes settled of those sampled; minutes sampled.
        var settledAtEnd = false
        var settledMinutes = 0
        var minutes = 0
        /// Flips between settled and not, and the first settled minute after the mark.
        var flips = 0
        var firstSettled: Int?
        var offerMinutes = 0
        var wrongOfferMinutes = 0
        var endError: Double?
        var endRadius: Double?
    }

    static let front = 14_400.0

    static func readings(seed: UInt64) -> [GPSReading] {
        var rng = SplitMix64(seed: 0x2626_0000 &+ seed &* 7919)
        var noiseRNG = rng.fork(1)
        let wind = rng.uniform(6, 20)
        let turn = rng.chance(0.5) ? 1.0 : -1.0
        var model = SwingModel(rng: &rng, depth: 5, rode: (24 * 24 + 6.0 * 6).squareRoot(), freeboard: 1, bowToGPS: 4,
                               meanWind: wind, yawAmplitude: rng.uniform(10, 30) * .pi / 180, yawPeriod: rng.uniform(40, 120),
                               windDirection: rng.uniform(0, 2 * .pi),
                               front: (at: front, shift: turn * 110 * .pi / 180, duration: 1200))
        let frame = LocalFrame(origin: Scenario.origin)
        var slow = (noiseRNG.gaussian() * 2.5, noiseRNG.gaussian() * 2.5), fast = (0.0, 0.0)
        var out: [GPSReading] = []
        out.reserveCapacity(Int(Scenario.nightSeconds))
        for i in 1...Int(Scenario.nightSeconds) {
            let p = model.step(1)
            // Gauss-Markov: sigma 2.5 m over 600 s, and 0.5 m over 5 s.
            let a = 1.0 / 600, b = 1.0 / 5
            slow.0 += -a * slow.0 + 2.5 * (2 * a).squareRoot() * noiseRNG.gaussian()
            slow.1 += -a * slow.1 + 2.5 * (2 * a).squareRoot() * noiseRNG.gaussian()
            fast.0 += -b * fast.0 + 0.5 * (2 * b).squareRoot() * noiseRNG.gaussian()
            fast.1 += -b * fast.1 + 0.5 * (2 * b).squareRoot() * noiseRNG.gaussian()
            let position = frame.coordinate(east: p.east + slow.0 + fast.0, north: p.north + slow.1 + fast.1)
            out.append(GPSReading(mode: .threeD, position: position, accuracy: 3, received: Instant(seconds: Double(i))))
        }
        return out
    }

    static func night(seed: UInt64) -> Night {
        var watch = Watch(settings: { var s = WatchSettings(); s.radius = 40; return s }())
        var night = Night(seed: seed)
        var marked = false
        var next = 0.0
        var wasSettled = false
        for r in readings(seed: seed) {
            let t = r.received.seconds
            _ = watch.handle(.reading(r), at: r.received)
            if !marked, t >= 600 {
                _ = watch.handle(.decision(.mark(.here)), at: r.received)
                marked = watch.anchor != nil
                next = t + 60
            }
            guard marked, t >= next else { continue }
            next += 60
            night.minutes += 1
            let e = watch.swing.estimate
            let settled = e?.settled == true
            if settled {
                night.settledMinutes += 1
                if night.firstSettled == nil { night.firstSettled = Int((t - 600) / 60) }
            }
            if settled != wasSettled, night.firstSettled != nil { night.flips += 1 }
            wasSettled = settled
            if let offer = watch.swingOffer {
                night.offerMinutes += 1
                if Geodesy.distance(offer.estimate.centre, Scenario.origin).value > 10 { night.wrongOfferMinutes += 1 }
            }
            night.settledAtEnd = settled
            night.endError = e.map { Geodesy.distance($0.centre, Scenario.origin).value }
            night.endRadius = e?.swingRadius.value
        }
        return night
    }

    /// The table, one row a night, and the totals; `failed` when any night offered a wrong move.
    static func run(seeds: Range<UInt64>) -> (text: String, wrongOffers: Int) {
        var rows: [[String]] = []
        var nights: [Night] = []
        for seed in seeds {
            let n = night(seed: seed)
            nights.append(n)
            rows.append(["\(seed)", n.settledAtEnd ? "yes" : "no", "\(n.settledMinutes) / \(n.minutes)",
                         n.firstSettled.map { "\($0)" } ?? "-", "\(n.flips)", "\(n.offerMinutes)", "\(n.wrongOfferMinutes)",
                         n.endError.map { Format.fixed($0, 1) } ?? "-", n.endRadius.map { Format.fixed($0, 1) } ?? "-"])
        }
        let settled = nights.filter(\.settledAtEnd).count
        let offered = nights.filter { $0.offerMinutes > 0 }.count
        let wrong = nights.filter { $0.wrongOfferMinutes > 0 }.count
        var text = Format.table(["seed", "settled at the end", "minutes settled", "first settled (min)", "flips",
                                 "offer minutes", "wrong offer minutes", "error at the end m", "radius at the end m"], rows)
        text += "\nswing-settle: seeds \(seeds.lowerBound)..\(seeds.upperBound - 1): settled at the end on \(settled) of "
            + "\(nights.count) nights, an offer on \(offered), a wrong offer on \(wrong)\n"
        return (text, wrong)
    }
}
