import Posix
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
        /// The box restarts (power cut, watchdog) after the boat dragged while it was down: it
        /// stands 30 to 150 m beyond the alert radius when the box comes back, restored from its
        /// journal with the alarm latched (`latched`) or only armed, and no fix yet; the first
        /// fix comes 5 to 40 s later. The boat keeps dragging at `knots` (0: the anchor caught).
        case restart(latched: Bool, knots: Double)
    }

    /// What the receiver does besides its noise, all through the run.
    enum Condition: String, Hashable, CaseIterable, Sendable {
        /// Only the profile's own rare gaps.
        case plain
        /// Dropouts of 10 to 15 s every 30 to 60 s (half silent, half gpsd mode-1 reports).
        case dropouts
        /// Bursts of 10 to 15 s every 30 to 60 s with eph 150 to 400 m and twice the error.
        case accuracyBursts = "accuracy bursts"
        /// 2D stretches: 1 to 5 min of mode 2 after 2 to 10 min of 3D, with 1.5 x the error and eph.
        case twoD = "2D stretches"
        /// A source that sends only RMC (a chartplotter through gpsd): every fix 2D, no accuracy.
        case rmcOnly = "RMC only"
        /// Too sparse to judge: 2 to 4 s of fixes every 60 to 90 s, nothing usable between.
        case sparse
        /// Speed and course from the difference of the last two positions (what gpsd reports
        /// for a receiver without Doppler velocity): its error is the position error's own
        /// movement, the worst case for a rule that trusts the speed.
        case speedFromPosition = "speed from position"
        /// Speed and course from the positions over the last 3 to 10 s (the span drawn per run):
        /// the smoothed SOG of a plotter or a receiver without Doppler.
        case smoothedSpeedFromPosition = "speed from positions over seconds"
        /// Multipath leaps: 2 to 6 an hour, each throwing the fixes 15 to 40 m in a random
        /// direction for 2 to 20 s, the reported accuracy and speed as they were (a Doppler
        /// receiver beside a mast).
        case leaps
    }

    let kind: Kind
    let condition: Condition
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
    /// A restart: when the box came back (restored from its journal, no fix yet).
    let restartT: Double?
    let noiseRMS: Double
    let speedNoiseRMS: Double
    let seconds: Double

    static let nightSeconds: Double = 8 * 3600
    /// When a drag breaks out, seconds after the mark: 10 to 30 minutes, or `ANCHOR_DRAG_AT=LO,HI`
    /// for a look at drags later in a night (what the watch has learnt by then, as the reaches,
    /// is more than the benchmark's drags see).
    static let dragWindow: (lo: Double, hi: Double) = {
        let p = Process.environment("ANCHOR_DRAG_AT")?.split(separator: ",").compactMap { Double($0) } ?? []
        return p.count == 2 && p[0] >= 0 && p[1] > p[0] ? (p[0], p[1]) : (600, 1800)
    }()

    /// How long after the true exit a rule may still ring before the drag counts as missed.
    static let dragFollow = 1200.0
    /// How long a restart run goes on after the box came back.
    static let restartFollow = 600.0
    static let origin = Coordinate(latitude: 54.341, longitude: 13.507)

    var isDrag: Bool { if case .drag = kind { true } else { false } }

    init(kind: Kind, profile: ReceiverProfile, margin: Double, seed: UInt64, sources: [NoiseCapture],
         condition: Condition = .plain) {
        var rng = SplitMix64(seed: seed)
        var noiseRNG = rng.fork(1)
        var gapRNG = rng.fork(2)
        var timeRNG = rng.fork(3)
        var conditionRNG = rng.fork(4)
        var model = SwingModel(rng: &rng, nightSeconds: Scenario.nightSeconds)
        self.kind = kind
        self.condition = condition
        self.profile = profile
        self.margin = margin
        swingRadius = model.swingRadius
        radius = model.swingRadius + margin
        anchor = Scenario.origin

        var breakout: Double?
        var seconds = Scenario.nightSeconds
        var restartBeyond = 0.0, restartDelay = 0.0, restartKnots = 0.0
        switch kind {
        case .night: break
        case .drag(let knots):
            let at = timeRNG.uniform(Scenario.dragWindow.lo, Scenario.dragWindow.hi)
            breakout = at
            model.breakOut(at: at, speedKnots: knots)
            seconds = at + (radius + 100) / (knots * 1852 / 3600) + Scenario.dragFollow
        case .restart(_, let knots):
            // The drag before the restart goes at 1 kn; the box is down all through it.
            breakout = 60
            model.breakOut(at: 60, speedKnots: 1)
            restartBeyond = timeRNG.uniform(30, 150)
            restartDelay = timeRNG.uniform(5, 40)
            restartKnots = knots
            seconds = 60 + (radius + restartBeyond + 60) / (1852.0 / 3600) + Scenario.restartFollow
        }
        breakoutT = breakout

        let noise = NoiseTrack(seconds: Int(seconds) + 2, profile: profile, sources: sources, rng: &noiseRNG)
        noiseRMS = noise.rms
        speedNoiseRMS = noise.hasVelocity ? noise.speedRMS : 0
        let gaps = (Scenario.gaps(seconds: seconds, perHour: profile.gapsPerHour, rng: &gapRNG)
            + Scenario.conditionGaps(condition, seconds: seconds, rng: &conditionRNG)).sorted { $0.start < $1.start }
        let stretches = Scenario.stretches(condition, seconds: seconds, rng: &conditionRNG)

        let frame = LocalFrame(origin: anchor)
        let dt = 1 / Double(profile.rate)
        let count = Int(seconds * Double(profile.rate))
        var readings: [GPSReading] = []
        var measured: [Offset?] = []
        var truth: [Double] = []
        readings.reserveCapacity(count)
        measured.reserveCapacity(count)
        truth.reserveCapacity(count)
        var exit: Double?, bound: Double?, restart: Double?
        var end = seconds
        var stretchIndex = 0, gapIndex = 0
        var lastNoFix = -1.0
        var previous: (east: Double, north: Double)?
        var lastTrack: Double?
        var lastMeasured: (Double, Double, Double)?
        // The smoothed SOG's span, and the measured positions of that long ago.
        let smoothSpan = condition == .smoothedSpeedFromPosition ? Double(Int(conditionRNG.uniform(3, 11))) : 0
        var pastMeasured: [(Double, Double, Double)] = []
        var filtered = (0.0, 0.0)
        var i = 0
        while true {
            i += 1
            let t = Double(i) * dt
            guard t <= end else { break }
            let p = model.step(dt)
            let velocity = previous.map { ((p.east - $0.east) / dt, (p.north - $0.north) / dt) } ?? (0, 0)
            previous = p
            let d = (p.east * p.east + p.north * p.north).squareRoot()
            if exit == nil, breakout != nil, d > radius { exit = t }
            if bound == nil, breakout != nil, d > radius + 2 * noise.rms { bound = t }
            if case .restart = kind {
                if restart == nil, d > radius + restartBeyond {
                    restart = t
                    end = t + Scenario.restartFollow
                    model.changeDrag(speedKnots: restartKnots)
                }
                guard let r = restart, t >= r + restartDelay else { continue }
            }
            while gapIndex < gaps.count, gaps[gapIndex].end <= t { gapIndex += 1 }
            var gap: Gap?
            var k = gapIndex
            while gap == nil, k < gaps.count, gaps[k].start <= t {
                if t < gaps[k].end { gap = gaps[k] }
                k += 1
            }
            if let gap {
                // In a gap: silence, or gpsd's mode 1 reports once a second.
                if !gap.silent, t - lastNoFix >= 1 {
                    lastNoFix = t
                    readings.append(.noFix(at: Instant(seconds: t)))
                    measured.append(nil)
                    truth.append(d)
                }
                continue
            }
            while stretchIndex < stretches.count, stretches[stretchIndex].end <= t { stretchIndex += 1 }
            let stretch = stretchIndex < stretches.count && stretches[stretchIndex].start <= t ? stretches[stretchIndex] : nil
            let n = noise.at(t)
            let scale = stretch?.errorScale ?? 1
            let e = p.east + scale * n.east + (stretch?.leapEast ?? 0), north = p.north + scale * n.north + (stretch?.leapNorth ?? 0)
            let position = frame.coordinate(east: e, north: north)
            var accuracy: Meters? = Meters(stretch?.eph ?? n.eph * scale)
            var mode = GPSReading.Mode.threeD
            if condition == .rmcOnly { accuracy = nil; mode = .twoD }
            if condition == .twoD, stretch != nil { mode = .twoD }
            var speed: Double?, track: Double?
            if condition == .smoothedSpeedFromPosition {
                pastMeasured.append((e, north, t))
                pastMeasured.removeAll { t - $0.2 > smoothSpan + 1e-6 }
                if let (pe, pn, pt) = pastMeasured.first, t - pt >= smoothSpan - 1e-6 {
                    let ve = (e - pe) / (t - pt), vn = (north - pn) / (t - pt)
                    speed = (ve * ve + vn * vn).squareRoot()
                    var course = atan2Degrees(ve, vn)
                    if course < 0 { course += 360 }
                    track = course
                }
            } else if condition == .speedFromPosition {
                if let (pe, pn, pt) = lastMeasured, t - pt > 0, t - pt <= 2 {
                    let ve = (e - pe) / (t - pt), vn = (north - pn) / (t - pt)
                    speed = (ve * ve + vn * vn).squareRoot()
                    var course = atan2Degrees(ve, vn)
                    if course < 0 { course += 360 }
                    track = course
                }
                lastMeasured = (e, north, t)
            } else if noise.hasVelocity {
                var ve = velocity.0 + n.velocityEast, vn = velocity.1 + n.velocityNorth
                if noise.speedLag > 0 {
                    // A motion filter: the reported velocity follows the boat's over its time.
                    let a = min(dt / noise.speedLag, 1)
                    filtered.0 += a * (ve - filtered.0)
                    filtered.1 += a * (vn - filtered.1)
                    (ve, vn) = filtered
                }
                speed = (ve * ve + vn * vn).squareRoot()
                var course = atan2Degrees(ve, vn)
                if course < 0 { course += 360 }
                track = course
                // Static hold: the receiver says it stands still, course as it last was.
                if speed! < n.holdBelow { speed = 0; track = lastTrack }
                lastTrack = track
            }
            readings.append(GPSReading(mode: mode, position: position, accuracy: accuracy, speed: speed, track: track,
                                       received: Instant(seconds: t)))
            let o = Geodesy.offset(from: anchor, to: position)
            measured.append(Offset(east: o.east, north: o.north))
            truth.append(d)
        }
        self.seconds = end
        self.readings = readings
        self.measured = measured
        self.truth = truth
        exitT = exit
        boundT = bound
        restartT = restart
    }

    /// True distance at `t` (the nearest reading at or before it).
    func trueDistance(at t: Double) -> Double {
        guard !readings.isEmpty else { return 0 }
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

    /// A stretch of degraded fixes: their error scaled, and their eph replaced (bursts) or scaled.
    struct Stretch {
        var start: Double
        var end: Double
        var errorScale: Double
        var eph: Double?
        /// A leap's offset of the fixes, east and north (m).
        var leapEast = 0.0, leapNorth = 0.0
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

    /// The condition's own gaps: dropouts, or the long silences of a sparse receiver.
    static func conditionGaps(_ condition: Condition, seconds: Double, rng: inout SplitMix64) -> [Gap] {
        var out: [Gap] = []
        switch condition {
        case .dropouts:
            var t = rng.uniform(0, 60)
            while t < seconds {
                out.append(Gap(start: t, end: t + rng.uniform(10, 15), silent: rng.chance(0.5)))
                t += rng.uniform(30, 60)
            }
        case .sparse:
            var t = rng.uniform(2, 4)
            let silent = rng.chance(0.5)
            while t < seconds {
                let period = rng.uniform(60, 90), fixes = rng.uniform(2, 4)
                out.append(Gap(start: t, end: t + period - fixes, silent: silent))
                t += period
            }
        default: break
        }
        return out
    }

    static func stretches(_ condition: Condition, seconds: Double, rng: inout SplitMix64) -> [Stretch] {
        var out: [Stretch] = []
        switch condition {
        case .accuracyBursts:
            var t = rng.uniform(0, 60)
            while t < seconds {
                out.append(Stretch(start: t, end: t + rng.uniform(10, 15), errorScale: 2, eph: rng.uniform(150, 400)))
                t += rng.uniform(30, 60)
            }
        case .leaps:
            let perHour = rng.uniform(2, 6)
            var t = rng.exponential(mean: 3600 / perHour)
            while t < seconds {
                let length = rng.uniform(2, 20), size = rng.uniform(15, 40), angle = rng.uniform(0, 2 * .pi)
                out.append(Stretch(start: t, end: t + length, errorScale: 1, eph: nil,
                                   leapEast: size * Math.sin(angle), leapNorth: size * Math.cos(angle)))
                t += length + rng.exponential(mean: 3600 / perHour)
            }
        case .twoD:
            var t = rng.uniform(120, 600)
            while t < seconds {
                let length = rng.uniform(60, 300)
                out.append(Stretch(start: t, end: t + length, errorScale: 1.5, eph: nil))
                t += length + rng.uniform(120, 600)
            }
        default: break
        }
        return out
    }
}
