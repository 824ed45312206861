import WatchCore

/// One simulated run, ready to replay: the readings the box would get from gpsd, and the truth
/// they were made from (where the antenna really was, when the anchor broke out, when the boat
/// really left the alert circle).
struct Scenario {
    enum Kind: Hashable {
        /// Eight hours holding: every alarm is false.
        case night
        /// The anchor breaks out at a random time and the boat drags at this speed.
        case drag(knots: Double)
    }

    let kind: Kind
    let profile: ReceiverProfile
    let margin: Double
    let swingRadius: Double
    let radius: Double
    let anchor: Coordinate
    let readings: [GPSReading]
    /// Each reading's position as an offset from the anchor, nil without a position (what a peer sees).
    let measured: [Offset?]
    /// True distance of the antenna from the anchor at each reading.
    let truth: [Double]
    let breakoutT: Double?
    /// First time the true position stands outside the alert radius.
    let exitT: Double?
    /// First time the true position stands beyond the radius by twice the noise: the lower bound.
    let boundT: Double?
    let noiseRMS: Double
    let seconds: Double

    static let nightSeconds: Double = 8 * 3600
    /// How long after the true exit a rule may still ring before the drag counts as missed.
    static let dragFollow = 1200.0
    static let origin = Coordinate(latitude: 54.341, longitude: 13.507)

    init(kind: Kind, profile: ReceiverProfile, margin: Double, seed: UInt64, sources: [NoiseCapture]) {
        var rng = SplitMix64(seed: seed)
        var noiseRNG = rng.fork(1)
        var gapRNG = rng.fork(2)
        var timeRNG = rng.fork(3)
        var model = SwingModel(rng: &rng, nightSeconds: Scenario.nightSeconds)
        self.kind = kind
        self.profile = profile
        self.margin = margin
        swingRadius = model.swingRadius
        radius = model.swingRadius + margin
        anchor = Scenario.origin

        var breakout: Double?
        var seconds = Scenario.nightSeconds
        if case .drag(let knots) = kind {
            let at = timeRNG.uniform(600, 1800)
            breakout = at
            model.breakOut(at: at, speedKnots: knots)
            let speed = knots * 1852 / 3600
            seconds = at + (radius + 100) / speed + Scenario.dragFollow
        }
        self.seconds = seconds
        breakoutT = breakout

        let noise = NoiseTrack(seconds: Int(seconds) + 2, profile: profile, sources: sources, rng: &noiseRNG)
        noiseRMS = noise.rms
        let gaps = Scenario.gaps(seconds: seconds, perHour: profile.gapsPerHour, rng: &gapRNG)

        let frame = LocalFrame(origin: anchor)
        let dt = 1 / Double(profile.rate)
        let count = Int(seconds * Double(profile.rate))
        var readings: [GPSReading] = []
        var measured: [Offset?] = []
        var truth: [Double] = []
        readings.reserveCapacity(count)
        measured.reserveCapacity(count)
        truth.reserveCapacity(count)
        var exit: Double?, bound: Double?
        var gapIndex = 0
        var lastNoFix = -1.0
        for i in 1...count {
            let t = Double(i) * dt
            let p = model.step(dt)
            let d = (p.east * p.east + p.north * p.north).squareRoot()
            if exit == nil, breakout != nil, d > radius { exit = t }
            if bound == nil, breakout != nil, d > radius + 2 * noise.rms { bound = t }
            while gapIndex < gaps.count, gaps[gapIndex].end <= t { gapIndex += 1 }
            if gapIndex < gaps.count, gaps[gapIndex].start <= t {
                // In a gap: silence, or gpsd's mode 1 reports once a second.
                if !gaps[gapIndex].silent, t - lastNoFix >= 1 {
                    lastNoFix = t
                    readings.append(.noFix(at: Instant(seconds: t)))
                    measured.append(nil)
                    truth.append(d)
                }
                continue
            }
            let n = noise.at(t)
            let e = p.east + n.east, north = p.north + n.north
            let position = frame.coordinate(east: e, north: north)
            readings.append(GPSReading(mode: .threeD, position: position, accuracy: Meters(n.eph),
                                       received: Instant(seconds: t)))
            let o = Geodesy.offset(from: anchor, to: position)
            measured.append(Offset(east: o.east, north: o.north))
            truth.append(d)
        }
        self.readings = readings
        self.measured = measured
        self.truth = truth
        exitT = exit
        boundT = bound
    }

    /// True distance at `t` (the nearest reading at or before it).
    func trueDistance(at t: Double) -> Double {
        var lo = 0, hi = readings.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if readings[mid].received.seconds <= t { lo = mid } else { hi = mid - 1 }
        }
        return truth[lo]
    }

    struct Gap {
        var start: Double
        var end: Double
        var silent: Bool
    }

    /// Fix gaps as a Poisson process: mostly a few seconds, sometimes half a minute, rarely two.
    static func gaps(seconds: Double, perHour: Double, rng: inout SplitMix64) -> [Gap] {
        guard perHour > 0 else { return [] }
        var out: [Gap] = []
        var t = rng.exponential(mean: 3600 / perHour)
        while t < seconds {
            let u = rng.uniform()
            let length = u < 0.7 ? rng.uniform(1, 5) : u < 0.95 ? rng.uniform(5, 30) : rng.uniform(30, 120)
            out.append(Gap(start: t, end: t + length, silent: rng.chance(0.5)))
            t += length + rng.exponential(mean: 3600 / perHour)
        }
        return out
    }
}
