import Posix

/// A receiver built from first principles rather than borrowed from a capture: the kind whose
/// reported speed is noisy and moves with its position (old SiRF and MediaTek chips, phone-grade
/// modules, receivers with a motion filter; issue 24 item 3). No capture of the library behaves
/// so, and no rule was chosen on these.
///
/// Its position error is a slow wander, a faster jitter, and excursions:
/// - the wander a Gauss-Markov process per axis (`slowSigma` m, correlated over `slowTau` s: the
///   sky changing);
/// - the jitter a Gauss-Markov process per axis smoothed once more over the same time (a receiver
///   filter that carries position and velocity together), `jitterSigma` m over `jitterTau` s;
/// - the excursions (multipath, a satellite lost or gained, the filter re-converging) come
///   `excursionsPerHour` times an hour at random (Poisson), each in a random direction: the
///   position goes out `excursionSize` m and back over `excursionSeconds` s (a raised cosine),
///   so at its fastest it moves `pi x size / seconds` (20 m over 40 s: 1.6 m/s, about 3 kn).
///
/// Its reported velocity is the true velocity plus `coupling` times the rate of change of its
/// jitter and excursions (a filter whose velocity state moves with the position it estimates: 1
/// is all of it), plus its own speed noise (a Gauss-Markov process per axis, `speedSigma` m/s
/// over `speedTau` s). A motion filter (`speedLag` > 0) low-passes the whole reported velocity
/// over that many seconds, so it lags the boat.
///
/// Each night draws its parameters within the model's ranges, and each excursion its size and
/// length.
struct ReceiverModel: Hashable, Sendable {
    var name: String
    /// Seed tag of the model's runs (distinct from the capture-borne receivers').
    var tag: UInt64
    var slowSigma: ClosedRange<Double> = 2...3
    var slowTau: ClosedRange<Double> = 300...900
    var jitterSigma: ClosedRange<Double> = 1.5...2.5
    var jitterTau: ClosedRange<Double> = 5...15
    var excursionsPerHour: ClosedRange<Double> = 2...6
    var excursionSize: ClosedRange<Double> = 15...22
    var excursionSeconds: ClosedRange<Double> = 30...50
    var coupling: ClosedRange<Double>
    var speedSigma: ClosedRange<Double>
    var speedTau: ClosedRange<Double>
    var speedLag: ClosedRange<Double> = 0...0
    /// The accuracy it reports (eph, m), wandering 20% about a value drawn in this range.
    var eph: ClosedRange<Double> = 20...30

    /// The receiver: excursions of 20 to 25 m over about 40 s with nearly their whole
    /// speed in the reported velocity, and its own speed wandering a knot or two at rest.
    static let coupled = ReceiverModel(name: "coupled", tag: 0x31, coupling: 0.8...1, speedSigma: 0.4...0.7, speedTau: 5...15)
    /// Half its excursions' speed in the velocity, more speed noise of its own (1 to 3 kn at rest).
    static let noisySpeed = ReceiverModel(name: "noisy speed", tag: 0x32, coupling: 0.4...0.6, speedSigma: 0.7...1.1,
                                          speedTau: 10...30)
    /// Nearly all its speed from its position filter: little noise of its own.
    static let filterSpeed = ReceiverModel(name: "filter speed", tag: 0x33, coupling: 0.9...1, speedSigma: 0.05...0.15,
                                           speedTau: 3...10)
    /// A motion filter: the reported velocity smoothed over 5 to 10 s, so it lags the boat,
    /// with most of the excursions' speed in it.
    static let laggedSpeed = ReceiverModel(name: "lagged speed", tag: 0x34, coupling: 0.6...0.9, speedSigma: 0.2...0.4,
                                           speedTau: 5...15, speedLag: 5...10)

    static let all = [coupled, noisySpeed, filterSpeed, laggedSpeed]

    static func named(_ name: String) -> ReceiverModel? { all.first { $0.name.replacingSpaces() == name } }

    /// One night's draw: the parameters, and the error as 1 Hz samples (east, north m; velocity
    /// error m/s, the lag applied later, to the whole reported velocity, by `Scenario`).
    struct Draw {
        var lag: Double
        var samples: [NoiseTrack.Sample]
    }

    func draw(seconds: Int, rng: inout SplitMix64) -> Draw {
        func pick(_ r: ClosedRange<Double>) -> Double { rng.uniform(r.lowerBound, r.upperBound) }
        let slow = pick(slowSigma), slowT = pick(slowTau), jit = pick(jitterSigma), jitT = pick(jitterTau)
        let perHour = pick(excursionsPerHour)
        let c = pick(coupling), speed = pick(speedSigma), speedT = pick(speedTau), lag = pick(speedLag), eph0 = pick(eph)
        // A Gauss-Markov process x smoothed by a first-order lag of the same time: the smoothed
        // one's variance is half x's, so x is drawn with twice the jitter's variance.
        let xSigma = jit * 2.0.squareRoot()
        let aSlow = Math.exp(-1 / slowT), aJit = Math.exp(-1 / jitT), aSpeed = Math.exp(-1 / speedT), aEph = Math.exp(-1.0 / 600)
        func step(_ v: inout Double, _ a: Double, _ sigma: Double) { v = a * v + sigma * (1 - a * a).squareRoot() * rng.gaussian() }
        var se = slow * rng.gaussian(), sn = slow * rng.gaussian()
        var xe = xSigma * rng.gaussian(), xn = xSigma * rng.gaussian()
        var ye = jit * rng.gaussian(), yn = jit * rng.gaussian()
        var ue = speed * rng.gaussian(), un = speed * rng.gaussian()
        var ephDrift = 0.0
        // The excursion under way: its start, length, size and direction (unit east, north).
        var next = rng.exponential(mean: 3600 / perHour)
        var excursion: (start: Double, length: Double, size: Double, e: Double, n: Double)?
        var out: [NoiseTrack.Sample] = []
        out.reserveCapacity(seconds)
        for i in 0..<seconds {
            let t = Double(i)
            step(&se, aSlow, slow); step(&sn, aSlow, slow)
            step(&xe, aJit, xSigma); step(&xn, aJit, xSigma)
            // The smoothed jitter follows x over the same time; its rate is (x - y) / T.
            var ve = (xe - ye) / jitT, vn = (xn - yn) / jitT
            ye += (xe - ye) * (1 - aJit); yn += (xn - yn) * (1 - aJit)
            if excursion == nil, t >= next {
                let angle = rng.uniform(0, 2 * .pi)
                excursion = (t, pick(excursionSeconds), pick(excursionSize), Math.sin(angle), Math.cos(angle))
            }
            var pe = 0.0, pn = 0.0
            if let x = excursion {
                let phase = 2 * Double.pi * (t - x.start) / x.length
                let out = x.size * (1 - Math.cos(phase)) / 2, rate = x.size * Double.pi / x.length * Math.sin(phase)
                pe = out * x.e; pn = out * x.n
                ve += rate * x.e; vn += rate * x.n
                if t - x.start >= x.length {
                    excursion = nil
                    next = t + rng.exponential(mean: 3600 / perHour)
                }
            }
            step(&ue, aSpeed, speed); step(&un, aSpeed, speed)
            step(&ephDrift, aEph, 0.2)
            out.append(NoiseTrack.Sample(east: se + ye + pe, north: sn + yn + pn, eph: eph0 * min(max(1 + ephDrift, 0.6), 1.6),
                                         velocityEast: c * ve + ue, velocityNorth: c * vn + un))
        }
        return Draw(lag: lag, samples: out)
    }
}

extension String {
    /// "noisy speed" as a command-line word: "noisy-speed".
    func replacingSpaces() -> String { String(map { $0 == " " ? "-" : $0 }) }
}
