#if canImport(Glibc)
import Glibc
#endif
import WatchCore
import XCTest

/// A fixed pseudo-random normal (sum of twelve uniforms less six, from a linear congruential
/// sequence), so every run of a test draws the same noise.
struct SeededNormal {
    var x: UInt64
    mutating func next() -> Double {
        var s = 0.0
        for _ in 0..<12 {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            s += Double(x >> 11) / Double(1 << 53)
        }
        return s - 6
    }
}

/// A boat near a fixed origin, moved in meters east/north, on a manual clock.
struct Harness {
    static let origin = Coordinate(latitude: 54.3413, longitude: 13.5065)
    var watch: Watch
    var now = Instant(seconds: 1000)
    var actions: [Action] = []

    init(_ configure: (inout WatchSettings) -> Void = { _ in }) {
        var s = WatchSettings()
        // Explicit values, so tests state the rule and survive benchmark-chosen defaults.
        s.radius = 30
        s.window = .seconds(20)
        s.minFixes = 3
        // The evidence: one wander is a fixed 5 m (floor = prior), so a fix at 45 m from a 30 m
        // radius adds 15 / 5 - 1 = 2 a second; one fix adds at most 20 / 4 = 5.
        s.confirmation = .seconds(20)
        s.fastest = .seconds(4)
        s.deadband = 1
        // The Doppler (speed over ground) lowers the deadband to 0.5 when it confirms; it
        // allows no faster ring than `fastest` here, so one fix adds at most 5 with or without it.
        s.dopplerDeadband = 0.5
        s.dopplerFastest = .seconds(4)
        s.dopplerThreshold = 4
        s.dopplerMinimum = 0.15
        s.dopplerPrior = 0.15
        s.dopplerSpan = .seconds(5)
        s.memory = .seconds(300)
        s.weakWeight = 0.5
        s.weakDeadband = 1
        s.noiseFloor = 5
        s.noisePrior = 5
        s.noisePriorSpan = .seconds(1_000_000)
        s.noiseSpan = .seconds(1_000_000)
        s.reliableMargin = 3
        s.accuracyWeight = 0
        s.staleAfter = .seconds(10)
        s.accuracyLimitFraction = 2
        s.gpsGrace = .seconds(60)
        s.snooze = .seconds(300)
        configure(&s)
        watch = Watch(settings: s)
    }

    static func at(east: Double, north: Double) -> Coordinate {
        let d = (east * east + north * north).squareRoot()
        guard d > 0 else { return origin }
        var b = atan2(east, north) * 180 / .pi
        if b < 0 { b += 360 }
        return Geodesy.destination(from: origin, bearing: b, distance: Meters(d))
    }

    func reading(east: Double, north: Double, accuracy: Double? = 5, mode: GPSReading.Mode = .threeD) -> GPSReading {
        GPSReading(mode: mode, position: Self.at(east: east, north: north), accuracy: accuracy.map { Meters($0) }, received: now)
    }

    @discardableResult
    mutating func send(_ event: Event) -> [Action] {
        let a = watch.handle(event, at: now)
        actions += a
        return a
    }

    /// Sends a 3D fix (accuracy 5 m) `north` m north of the anchor, its speed `v` m/s along that
    /// line (outward when positive), then advances the clock a second; true if it rang on that fix.
    mutating func sendAlongLine(north d: Double, speed v: Double) -> Bool {
        send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: d), accuracy: 5,
                                 speed: abs(v), track: v >= 0 ? 0 : 180, received: now)))
        if case .ringing = watch.alarm { return true }
        wait(1)
        return false
    }

    /// Advances the clock by `seconds`, ticking at every deadline the watch asks for on the way.
    mutating func wait(_ seconds: Double) {
        let end = now + .seconds(seconds)
        while let next = watch.nextDeadline(after: now), next <= end {
            now = next
            send(.tick)
        }
        now = end
        send(.tick)
    }

    /// One fix per second for `seconds` at the position `place(i)` returns.
    mutating func fixes(_ seconds: Int, accuracy: Double? = 5, _ place: (Int) -> (Double, Double)) {
        for i in 0..<seconds {
            let (e, n) = place(i)
            send(.reading(reading(east: e, north: n, accuracy: accuracy)))
            wait(1)
        }
    }

    /// `rate` fixes per second for `seconds`, at the position `place(t)` returns for the time
    /// since the first of them.
    mutating func fixes(seconds: Double, rate: Int, accuracy: Double? = 5, _ place: (Double) -> (Double, Double)) {
        let count = Int((seconds * Double(rate)).rounded())
        for i in 0..<count {
            let (e, n) = place(Double(i) / Double(rate))
            send(.reading(reading(east: e, north: n, accuracy: accuracy)))
            wait(1 / Double(rate))
        }
    }

    /// Feeds `rate` fixes a second at `place(t)` until the alarm rings or `limit` seconds pass;
    /// returns the seconds it took, nil if it never rang.
    mutating func secondsUntilRinging(rate: Int = 1, limit: Double = 300, accuracy: Double? = 5,
                                      _ place: (Double) -> (Double, Double)) -> Double? {
        let count = Int((limit * Double(rate)).rounded())
        for i in 0..<count {
            let t = Double(i) / Double(rate)
            let (e, n) = place(t)
            send(.reading(reading(east: e, north: n, accuracy: accuracy)))
            if case .ringing = watch.alarm { return t }
            wait(1 / Double(rate))
            if case .ringing = watch.alarm { return t + 1 / Double(rate) }
        }
        return nil
    }

    /// Marked at the origin after a few good fixes, optionally armed.
    mutating func anchored(armed: Bool) {
        fixes(5) { _ in (0, 0) }
        send(.decision(.mark(.here)))
        XCTAssertEqual(watch.anchor.map { Geodesy.distance($0, Self.origin).value } ?? 99, 0, accuracy: 0.01)
        if armed { send(.armSwitch(on: true)) }
    }

    /// A watch with the default settings but an alert radius of `radius` m and what `configure`
    /// changes, marked at the origin and armed.
    static func armed(radius: Meters, _ configure: (inout WatchSettings) -> Void = { _ in }) -> Harness {
        var h = Harness { s in
            s = WatchSettings()
            s.radius = radius
            configure(&s)
        }
        h.anchored(armed: true)
        return h
    }

    var verdictKind: PositionVerdict.Kind { watch.verdict.kind }
}

extension Action {
    var refusal: Refusal? { if case .refused(_, let r) = self { r } else { nil } }
    var receipt: Receipt? { if case .accepted(let r, _) = self { r } else { nil } }
    var acceptedChirp: Chirp? { if case .accepted(_, let c) = self { c } else { nil } }
}
