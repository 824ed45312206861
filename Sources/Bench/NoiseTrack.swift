import Posix

/// A receiver's error over a whole simulated run, one sample a second, stitched from pieces of
/// the real captures' residual series: each piece starts at a random point of a random capture,
/// is rotated by a random angle (the error has no preferred direction relative to the swing), and
/// cross-fades into the next over a few seconds so the seams add no jumps the receiver didn't make.
struct NoiseTrack {
    struct Sample {
        var east: Double
        var north: Double
        var eph: Double
        /// Error of the reported velocity (east, north m/s): what a stationary receiver reported.
        var velocityEast = 0.0
        var velocityNorth = 0.0
        /// A static-hold receiver reports speed 0 below this (m/s); 0 for the others.
        var holdBelow = 0.0
    }

    /// Below this speed a static-hold receiver reports 0 (an assumption: receivers' thresholds
    /// differ, 0.5 m/s is a common u-blox setting; Docs/benchmarks.md).
    static let staticHoldSpeed = 0.5

    private(set) var samples: [Sample] = []
    /// Root mean square of the error's length: "the noise" of the lower bound.
    let rms: Double
    /// Whether the readings carry speed and course: some source reports them.
    let hasVelocity: Bool
    /// Root mean square of the velocity error, m/s.
    let speedRMS: Double

    static let crossFade = 5
    /// A motion filter's time (s) over which the receiver low-passes its whole reported velocity
    /// (`ReceiverModel.speedLag`); 0 for the others.
    private(set) var speedLag = 0.0

    init(seconds: Int, profile: ReceiverProfile, sources: [NoiseCapture], rng: inout SplitMix64) {
        if let model = profile.model {
            let d = model.draw(seconds: seconds, rng: &rng)
            samples = d.samples
            speedLag = d.lag
            hasVelocity = true
            rms = NoiseTrack.rms(samples.map { ($0.east, $0.north) })
            speedRMS = NoiseTrack.rms(samples.map { ($0.velocityEast, $0.velocityNorth) })
            return
        }
        // A poor receiver's pieces come from captures of 3 minutes or more where there are any
        // (a held-out fold has only its own capture, however short).
        let noisy = sources.filter { $0.rms > 0.05 }
        let long = noisy.filter { profile.quality == .good || $0.sampleCount >= 180 }
        let usable = long.isEmpty ? noisy : long
        precondition(!usable.isEmpty, "no stationary capture with noise to borrow")
        // Longer captures hold more of a receiver's slow wander: weight by the square root of length.
        let weights = usable.map { Double($0.sampleCount).squareRoot() }
        let total = weights.reduce(0, +)
        var hdopDrift = 0.0
        var out: [Sample] = []
        out.reserveCapacity(seconds + 600)
        while out.count < seconds {
            var pick = rng.uniform() * total
            var index = 0
            while index < usable.count - 1, pick >= weights[index] { pick -= weights[index]; index += 1 }
            let capture = usable[index]
            let run = capture.runs[Int(rng.uniform() * Double(capture.runs.count)) % capture.runs.count]
            let start = Int(rng.uniform() * Double(run.count))
            let length = min(run.count - start, max(30, Int(rng.uniform(60, 1200))))
            guard length >= 10 else { continue }
            let angle = rng.uniform(0, 2 * .pi)
            let (s, c) = (Math.sin(angle), Math.cos(angle))
            let scale = profile.quality == .poor
                ? rng.uniform(ReceiverProfile.poorWander.lowerBound, ReceiverProfile.poorWander.upperBound) / max(capture.p95, 0.5)
                : 1
            var piece: [Sample] = []
            piece.reserveCapacity(length)
            for k in 0..<length {
                let r = run[start + k]
                // Captures that report no accuracy (RMC-only logs) get a receiver-like HDOP that
                // wanders slowly around 1.1; eph is what gpsd 3.22 would say: HDOP x 19 m.
                hdopDrift += (-hdopDrift / 600 + 0.2 * (2.0 / 600).squareRoot() * rng.gaussian())
                let eph = r.eph ?? 19 * min(max(1.1 + hdopDrift, 0.7), 2.5)
                piece.append(Sample(east: scale * (c * r.east - s * r.north),
                                    north: scale * (s * r.east + c * r.north),
                                    eph: profile.ephFollowsNoise ? eph * scale.squareRoot() : eph))
            }
            // Cross-fade: the tail of what we have blends into the new piece.
            let fade = min(NoiseTrack.crossFade, out.count, piece.count)
            for k in 0..<fade {
                let w = Double(k + 1) / Double(fade + 1)
                let i = out.count - fade + k
                out[i].east = out[i].east * (1 - w) + piece[k].east * w
                out[i].north = out[i].north * (1 - w) + piece[k].north * w
                out[i].eph = out[i].eph * (1 - w) + piece[k].eph * w
            }
            out.append(contentsOf: piece[fade...])
        }
        samples = Array(out.prefix(seconds))
        rms = (samples.reduce(0) { $0 + $1.east * $1.east + $1.north * $1.north } / Double(max(samples.count, 1))).squareRoot()

        // Velocity error, stitched the same way but on its own from the captures that report
        // speed and course (the Doppler velocity's error is independent of the position's slow
        // wander): pieces of their reported velocity, rotated; a poor receiver's scaled by the
        // square root of its position scale (an assumption, Docs/benchmarks.md).
        let moving = sources.filter(\.hasVelocity)
        hasVelocity = !moving.isEmpty
        var filled = 0
        while hasVelocity, filled < samples.count {
            let capture = moving[Int(rng.uniform() * Double(moving.count)) % moving.count]
            let run = capture.runs[Int(rng.uniform() * Double(capture.runs.count)) % capture.runs.count]
            let start = Int(rng.uniform() * Double(run.count))
            let length = min(run.count - start, max(30, Int(rng.uniform(60, 1200))), samples.count - filled)
            guard length >= 1 else { continue }
            let angle = rng.uniform(0, 2 * .pi)
            let (s, c) = (Math.sin(angle), Math.cos(angle))
            let scale = profile.quality == .poor
                ? (rng.uniform(ReceiverProfile.poorWander.lowerBound, ReceiverProfile.poorWander.upperBound) / max(capture.p95, 0.5)).squareRoot()
                : 1
            let hold = capture.staticHold ? NoiseTrack.staticHoldSpeed : 0
            for k in 0..<length {
                let v = run[start + k].velocity ?? Offset(east: 0, north: 0)
                samples[filled + k].holdBelow = hold
                samples[filled + k].velocityEast = scale * (c * v.east - s * v.north)
                samples[filled + k].velocityNorth = scale * (s * v.east + c * v.north)
            }
            filled += length
        }
        speedRMS = (samples.reduce(0) { $0 + $1.velocityEast * $1.velocityEast + $1.velocityNorth * $1.velocityNorth }
                    / Double(max(samples.count, 1))).squareRoot()
    }

    static func rms(_ xs: [(Double, Double)]) -> Double {
        (xs.reduce(0) { $0 + $1.0 * $1.0 + $1.1 * $1.1 } / Double(max(xs.count, 1))).squareRoot()
    }

    /// The error at `t` seconds, linearly interpolated between whole seconds (a 10 Hz receiver's
    /// error is as correlated as its 1 Hz samples; its fixes fall between them).
    func at(_ t: Double) -> Sample {
        let i = min(max(Int(t), 0), samples.count - 1)
        let j = min(i + 1, samples.count - 1)
        let k = min(max(t - Double(i), 0), 1)
        let a = samples[i], b = samples[j]
        return Sample(east: a.east + (b.east - a.east) * k, north: a.north + (b.north - a.north) * k,
                      eph: a.eph + (b.eph - a.eph) * k,
                      velocityEast: a.velocityEast + (b.velocityEast - a.velocityEast) * k,
                      velocityNorth: a.velocityNorth + (b.velocityNorth - a.velocityNorth) * k, holdBelow: a.holdBelow)
    }
}
