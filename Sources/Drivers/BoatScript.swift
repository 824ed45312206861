import Posix
import WatchCore

/// A scripted boat for the demo and for `run --simulate`: where it is and what its receiver
/// reports at each second. Pure and deterministic (its own PRNG), so a scenario replays alike.
public struct BoatScript: Sendable {
    public enum Phase: Hashable, Sendable {
        /// Motoring in to the spot, then stopping over the anchor.
        case arriving
        /// Lying to the rode, swinging with the wind.
        case swinging
        /// The receiver reports no fix.
        case outage
        /// The anchor has broken out: dragging downwind at `knots`.
        case dragging(knots: Double)
    }

    public struct Segment: Hashable, Sendable {
        public var from: Double
        public var phase: Phase
        public init(from: Double, _ phase: Phase) {
            self.from = from
            self.phase = phase
        }
    }

    public var origin: Coordinate
    public var rode: Double
    public var segments: [Segment]
    /// Seconds at which the receiver reports one wild fix.
    public var strayFixes: Set<Int>
    public var noise: Double
    public var seed: UInt64
    public var end: Double
    /// How far the swing reaches each side of its mean (degrees) and how long one swing takes.
    public var swingDegrees = 35.0
    public var swingPeriod = 180.0

    public init(origin: Coordinate = Coordinate(latitude: 54.3413, longitude: 13.5065), rode: Double = 22,
                segments: [Segment], strayFixes: Set<Int> = [], noise: Double = 1.5, seed: UInt64 = 7, end: Double) {
        self.origin = origin
        self.rode = rode
        self.segments = segments
        self.strayFixes = strayFixes
        self.noise = noise
        self.seed = seed
        self.end = end
    }

    /// The demo's night, in script seconds: arriving, marking, a calm swing with one stray fix,
    /// a GPS outage long enough for the fault, then a drag at 1 knot.
    public static let demo = BoatScript(
        segments: [
            Segment(from: 0, .arriving), Segment(from: 40, .swinging), Segment(from: 200, .outage),
            Segment(from: 300, .swinging), Segment(from: 360, .dragging(knots: 1)),
        ],
        strayFixes: [150], end: 900)

    /// A night that drags: for `run --simulate drag` and the kill test.
    public static let drag = BoatScript(
        segments: [Segment(from: 0, .swinging), Segment(from: 120, .dragging(knots: 1))], end: 1_000_000)

    /// A night whose wind swings the boat 70 degrees each way over 10 minutes on 30 m of rode:
    /// for `run --simulate swing`, where the skipper marks late (the boat, not the anchor) and
    /// the swing shows where the anchor is.
    public static let swing: BoatScript = {
        var s = BoatScript(rode: 30, segments: [Segment(from: 0, .swinging)], end: 1_000_000)
        s.swingDegrees = 70
        s.swingPeriod = 600
        return s
    }()

    /// A night that holds: for `run --simulate hold`.
    public static let hold = BoatScript(segments: [Segment(from: 0, .swinging)], end: 1_000_000)

    public func phase(at t: Double) -> Phase {
        segments.last { $0.from <= t }?.phase ?? .swinging
    }

    /// The true position at `t`, meters east and north of the anchor.
    public func truePosition(at t: Double) -> (east: Double, north: Double) {
        var e = 0.0, n = 0.0
        var lastSwing = 0.0
        for (i, seg) in segments.enumerated() where seg.from <= t {
            let until = min(t, i + 1 < segments.count ? segments[i + 1].from : t)
            switch seg.phase {
            case .arriving:
                // Motors in from 60 m south, stopping over the anchor at 30 s.
                let k = min(until / 30, 1)
                e = 0
                n = -60 * (1 - k)
            case .swinging, .outage:
                lastSwing = until
                // Falls back on the rode and swings through 70 degrees over ~3 minutes.
                let settle = min(until / 20, 1)
                let angle = 200 + swingDegrees * Math.sin(2 * Double.pi * until / swingPeriod)
                e = rode * settle * Math.sin(angle * .pi / 180)
                n = rode * settle * Math.cos(angle * .pi / 180)
            case .dragging(let knots):
                let d = (until - seg.from) * knots * 1852 / 3600
                let angle = 200 + swingDegrees * Math.sin(2 * Double.pi * lastSwing / swingPeriod)
                e = (rode + d) * Math.sin(angle * .pi / 180)
                n = (rode + d) * Math.cos(angle * .pi / 180)
            }
        }
        return (e, n)
    }

    /// What the receiver reports at whole second `second`, received at `received`.
    public func reading(second: Int, received: Instant) -> GPSReading {
        let t = Double(second)
        if case .outage = phase(at: t) { return .noFix(at: received) }
        var (e, n) = truePosition(at: t)
        var rng = SplitMix(seed: seed &+ UInt64(second) &* 0x9E37_79B9)
        e += noise * rng.gaussian()
        n += noise * rng.gaussian()
        if strayFixes.contains(second) {
            e += 70
            n += 40
        }
        let d = (e * e + n * n).squareRoot()
        var bearing = Math.atan2(e, n) * 180 / .pi
        if bearing < 0 { bearing += 360 }
        let p = d > 0 ? Geodesy.destination(from: origin, bearing: bearing, distance: Meters(d)) : origin
        return GPSReading(mode: .threeD, position: p, accuracy: Meters(0.9 * 19), received: received)
    }
}

/// SplitMix64: a tiny deterministic generator for scripted noise.
public struct SplitMix: Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Irwin-Hall approximation of a standard normal: twelve uniforms, minus six.
    public mutating func gaussian() -> Double {
        var s = 0.0
        for _ in 0..<12 { s += uniform() }
        return s - 6
    }
}
