#if canImport(Glibc)
import Glibc
#endif
import WatchCore
import XCTest

/// The reported speed over ground (the receiver's Doppler) hastens a drag it confirms and never
/// slows or starts one; a 2D fix of a receiver whose 2D fixes wander more, or a fix whose
/// reported accuracy is far worse than the receiver's usual, counts for less
/// (Docs/verdict.md, "The Doppler" and "Weaker evidence").
final class DopplerTests: XCTestCase {
    /// One reading a second from `place(t)` with the velocity `velocity(t)` (speed m/s, track
    /// degrees; nil: no speed reported) until the alarm rings; the seconds it took, or nil.
    private func ringTime(_ h: inout Harness, limit: Double = 300, mode: GPSReading.Mode = .threeD,
                          accuracy: Double? = 5,
                          _ place: (Double) -> (Double, Double), velocity: (Double) -> (Double, Double)?) -> Double? {
        for i in 0..<Int(limit) {
            let t = Double(i)
            let (e, n) = place(t)
            let v = velocity(t)
            h.send(.reading(GPSReading(mode: mode, position: Harness.at(east: e, north: n),
                                       accuracy: accuracy.map { Meters($0) }, speed: v?.0, track: v?.1,
                                       received: h.now)))
            if case .ringing = h.watch.alarm { return t }
            h.wait(1)
        }
        return nil
    }

    private func anchoredAndArmed(_ configure: (inout WatchSettings) -> Void = { _ in }) -> Harness {
        var h = Harness(configure)
        h.anchored(armed: true)
        // Ten minutes holding (the Doppler's trust span) with a small speed the positions don't
        // show: the receiver's own.
        for i in 0..<600 {
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 20 + (i % 2 == 0 ? 0.3 : -0.3)),
                                       accuracy: 5, speed: 0.02, track: 0, received: h.now)))
            h.wait(1)
        }
        return h
    }

    /// A boat leaving at 1.5 m/s straight away from the anchor, seen with and without speed.
    func testSpeedAwayFromTheAnchorRingsSooner() throws {
        var withSpeed = anchoredAndArmed { $0.dopplerFastest = .seconds(2) }
        var without = anchoredAndArmed { $0.dopplerFastest = .seconds(2) }
        let out: (Double) -> (Double, Double) = { t in (0, 20 + 1.5 * t) }
        let fast = try XCTUnwrap(ringTime(&withSpeed, out, velocity: { _ in (1.5, 0) }))
        let slow = try XCTUnwrap(ringTime(&without, out, velocity: { _ in nil }))
        XCTAssertLessThan(fast, slow, "the Doppler confirms the drag: rings sooner")
        // Never before the boat is beyond the alert radius (30 m, reached at t = 6.7 s).
        XCTAssertGreaterThan(fast, 6.7)
    }

    /// The boat on `out` rings at the same second with `velocity` as with no speed reported.
    private func assertRingsAsPositionAlone(_ out: (Double) -> (Double, Double), velocity: (Double) -> (Double, Double)?,
                                            file: StaticString = #filePath, line: UInt = #line) throws {
        var with = anchoredAndArmed()
        var without = anchoredAndArmed()
        let a = try XCTUnwrap(ringTime(&with, out, velocity: velocity), file: file, line: line)
        let b = try XCTUnwrap(ringTime(&without, out, velocity: { _ in nil }), file: file, line: line)
        XCTAssertEqual(a, b, file: file, line: line)
    }

    /// The same track with the speed pointing across the line from the anchor (a yaw, a sheer)
    /// rings exactly as position alone does.
    func testSpeedAcrossTheLineChangesNothing() throws {
        try assertRingsAsPositionAlone({ t in (0, 20 + 1.5 * t) }, velocity: { _ in (1.5, 90) })
    }

    /// A receiver that holds its speed at zero (static hold) still rings on position alone.
    func testZeroSpeedNeverStopsTheAlarm() throws {
        try assertRingsAsPositionAlone({ t in (0, 20 + 0.3 * t) }, velocity: { _ in (0, 0) })
    }

    /// Speed away from the anchor while inside the alert radius builds no evidence.
    func testSpeedInsideTheRadiusBuildsNothing() {
        var h = anchoredAndArmed()
        XCTAssertNil(ringTime(&h, limit: 120, { _ in (0, 25) }, velocity: { _ in (2, 0) }))
        XCTAssertEqual(h.verdictKind, .holding)
    }

    /// One stray fix far out, with the Doppler saying "away", moves nothing.
    func testOneStrayFixWithSpeedMovesNothing() {
        var h = anchoredAndArmed { $0.dopplerFastest = .seconds(2) }
        // Moving out at 2 m/s, still inside the radius: the speed and the track agree.
        for i in 0..<4 {
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 20 + 2 * Double(i)), accuracy: 5,
                                       speed: 2, track: 0, received: h.now)))
            h.wait(1)
        }
        XCTAssertTrue(h.watch.noise.movingAway(h.watch.settings))
        h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 200), accuracy: 5,
                                   speed: 2, track: 0, received: h.now)))
        XCTAssertEqual(h.verdictKind, .holding)
        XCTAssertEqual(h.watch.alarm, .armed)
    }

    /// A receiver whose reported speed wanders while the boat lies still: its measured spread
    /// rises, and the same speed away no longer counts.
    func testASpeedThatWandersIsTrustedLess() {
        var h = anchoredAndArmed { s in
            s.noisePriorSpan = .seconds(60)
            s.noiseSpan = .seconds(600)
        }
        for i in 0..<900 {
            // +-0.6 m/s along the line, a 40 s period: the smoothed speed swings about 0.45 m/s.
            let v = 0.6 * sin(Double(i) * 2 * .pi / 40)
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 20), accuracy: 5,
                                       speed: abs(v), track: v >= 0 ? 0 : 180, received: h.now)))
            h.wait(1)
        }
        XCTAssertGreaterThan(h.watch.noise.radialSigma(h.watch.settings), 0.2)
        for _ in 0..<10 {
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 20), accuracy: 5,
                                       speed: 0.7, track: 0, received: h.now)))
            h.wait(1)
        }
        XCTAssertFalse(h.watch.noise.movingAway(h.watch.settings))
    }

    /// A receiver whose speed was calm for half an hour and then starts to wander is trusted
    /// less within minutes, not after the half hour the long spread takes (the benchmark's poor
    /// receiver, its speed noise changing from one stretch to the next, rang falsely when a
    /// noisy stretch's speed, smoothed to 0.3 to 0.5 m/s away, passed three of its calm spreads).
    func testASpeedThatStartsToWanderIsTrustedLessAtOnce() {
        func afterWandering(recent: Double) -> Bool {
            var h = anchoredAndArmed { s in
                s.dopplerRecentSpan = .seconds(recent)
                s.noisePriorSpan = .seconds(600)
                s.noiseSpan = .seconds(1800)
                s.dopplerSpan = .seconds(20)
                s.dopplerThreshold = 3
            }
            for _ in 0..<1800 {
                h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 20), accuracy: 5,
                                           speed: 0.02, track: 0, received: h.now)))
                h.wait(1)
            }
            for i in 0..<180 {
                // +-0.6 m/s along the line, a 60 s period: the smoothed speed swings about 0.45 m/s.
                let v = 0.6 * sin(Double(i) * 2 * .pi / 60)
                h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 20), accuracy: 5,
                                           speed: abs(v), track: v >= 0 ? 0 : 180, received: h.now)))
                h.wait(1)
            }
            for i in 0..<40 {
                // The track moves with the speed (a speed the track doesn't show never counts).
                h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 20 + 0.5 * Double(i)), accuracy: 5,
                                           speed: 0.5, track: 0, received: h.now)))
                h.wait(1)
            }
            return h.watch.noise.movingAway(h.watch.settings)
        }
        XCTAssertFalse(afterWandering(recent: 300), "three minutes of wandering speed: 0.5 m/s away is no evidence")
        XCTAssertTrue(afterWandering(recent: 0), "with the long spread alone the same speed counts")
    }

    /// A speed worked out from the positions (what gpsd reports for a receiver without Doppler)
    /// moves with their wander: it is recognised while holding and never hastens.
    func testASpeedWorkedOutFromThePositionsNeverHastens() throws {
        func derived(_ place: @escaping (Double) -> (Double, Double)) -> (Double) -> (Double, Double)? {
            { t in
                let (e0, n0) = place(t - 1), (e1, n1) = place(t)
                let ve = e1 - e0, vn = n1 - n0
                var track = atan2(ve, vn) * 180 / .pi
                if track < 0 { track += 360 }
                return ((ve * ve + vn * vn).squareRoot(), track)
            }
        }
        // Ten minutes of a receiver wandering +-3 m about 20 m, in a 7 s rhythm, then a drag.
        let wander: (Double) -> (Double, Double) = { t in (0, 20 + 3 * sin(t * 2 * .pi / 7)) }
        var fromPositions = anchoredAndArmed { $0.dopplerFastest = .seconds(2) }
        var doppler = anchoredAndArmed { $0.dopplerFastest = .seconds(2) }
        var without = anchoredAndArmed { $0.dopplerFastest = .seconds(2) }
        XCTAssertNil(ringTime(&fromPositions, limit: 600, wander, velocity: derived(wander)))
        XCTAssertNil(ringTime(&doppler, limit: 600, wander, velocity: { _ in (0.02, 0) }))
        XCTAssertNil(ringTime(&without, limit: 600, wander, velocity: { _ in nil }))
        XCTAssertFalse(fromPositions.watch.noise.speedIndependent(fromPositions.watch.settings))
        XCTAssertTrue(doppler.watch.noise.speedIndependent(doppler.watch.settings))
        let out: (Double) -> (Double, Double) = { t in (0, 20 + 1.5 * t) }
        let a = try XCTUnwrap(ringTime(&fromPositions, out, velocity: derived(out)))
        let b = try XCTUnwrap(ringTime(&without, out, velocity: { _ in nil }))
        let c = try XCTUnwrap(ringTime(&doppler, out, velocity: { _ in (1.5, 0) }))
        XCTAssertEqual(a, b, "a worked-out speed changes nothing")
        XCTAssertLessThan(c, b, "the receiver's own speed hastens")
    }

    /// A receiver whose 2D fixes wander twice as far as its 3D ones: after it is measured, a 2D
    /// fix beyond the radius takes longer to ring than the same 3D fix.
    func testTwoDFixesOfAReceiverThatWandersMoreInTwoDCountForLess() throws {
        func learnt() -> Harness {
            var h = anchoredAndArmed { s in
                s.noiseFloor = 1
                s.noisePriorSpan = .seconds(60)
                s.noiseSpan = .seconds(600)
            }
            for i in 0..<1200 {
                let twoD = (i / 60) % 2 == 1
                let wobble = (twoD ? 6.0 : 3.0) * (i % 2 == 0 ? 1 : -1)
                h.send(.reading(h.reading(east: 0, north: 20 + wobble, accuracy: 5, mode: twoD ? .twoD : .threeD)))
                h.wait(1)
            }
            return h
        }
        var twoD = learnt()
        var threeD = learnt()
        let a = try XCTUnwrap(ringTime(&twoD, mode: .twoD, { _ in (0, 45) }, velocity: { _ in nil }))
        let b = try XCTUnwrap(ringTime(&threeD, mode: .threeD, { _ in (0, 45) }, velocity: { _ in nil }))
        // Weight 0.5 alone doubles the time; the larger 2D wander makes it longer still.
        XCTAssertGreaterThan(a, 2 * b)
    }

    /// 2D stretches that come and go (2 minutes in every 12) are measured on their own time:
    /// after an hour the watch knows they wander further than the receiver's 3D fixes.
    func testBriefTwoDStretchesAreMeasuredOnTheirOwnTime() {
        var h = anchoredAndArmed { s in
            s.noiseFloor = 1
            s.noisePriorSpan = .seconds(600)
            s.noiseSpan = .seconds(1800)
        }
        for i in 0..<3600 {
            let twoD = i % 720 >= 600
            let wobble = (twoD ? 6.0 : 3.0) * (i % 2 == 0 ? 1 : -1)
            h.send(.reading(h.reading(east: 0, north: 20 + wobble, accuracy: 5, mode: twoD ? .twoD : .threeD)))
            h.wait(1)
        }
        // Their mean square is 36 against the whole's 13.5: a ratio of about 1.6.
        XCTAssertGreaterThan(h.watch.noise.weakScale, 1.3, "weak scale \(h.watch.noise.weakScale)")
    }

    /// A burst of fixes reporting ten times the receiver's usual accuracy counts for far less.
    func testAFixFarLessAccurateThanUsualCountsForLess() {
        var h = anchoredAndArmed()
        for _ in 0..<300 { h.send(.reading(h.reading(east: 0, north: 20, accuracy: 5))); h.wait(1) }
        // 15 s at 45 m with accuracy 50 (ten times the usual 5): would ring in about 10 s at 5.
        for _ in 0..<15 { h.send(.reading(h.reading(east: 0, north: 45, accuracy: 50))); h.wait(1) }
        XCTAssertEqual(h.watch.alarm, .armed)
    }

    /// A burst of poor readings (accuracy more than twice the usual) is weaker evidence, like a
    /// 2D fix, and is never hastened, even while the reported speed says "away": the benchmark's
    /// poor receiver rang falsely in such a burst, its position 30 m out and its speed noise
    /// smoothed to 0.5 m/s away, while the boat lay still.
    func testABurstOfPoorReadingsIsNeverHastened() throws {
        func ring(accuracy: Double, speed: Double?) throws -> Double {
            var h = anchoredAndArmed()
            for _ in 0..<300 { h.send(.reading(h.reading(east: 0, north: 20, accuracy: 5))); h.wait(1) }
            return try XCTUnwrap(ringTime(&h, accuracy: accuracy, { _ in (0, 40) },
                                          velocity: { _ in speed.map { ($0, 0) } }))
        }
        let burstAway = try ring(accuracy: 15, speed: 1), burstStill = try ring(accuracy: 15, speed: nil)
        XCTAssertEqual(burstAway, burstStill, "a burst fix rings as position alone, speed or not")
        // A fix of the usual accuracy beyond the radius with the same speed is hastened.
        let usualAway = try ring(accuracy: 5, speed: 1), usualStill = try ring(accuracy: 5, speed: nil)
        XCTAssertLessThan(usualAway, usualStill)
    }

    func testTheDopplerKeysAreCheckedTogether() {
        var s = WatchSettings()
        s.dopplerFastest = .seconds(1)
        XCTAssertTrue(s.problems.contains { $0.hasPrefix("watch.doppler_fastest must be 2 s or more") })
        s = WatchSettings()
        s.dopplerThreshold = 1
        XCTAssertTrue(s.problems.contains { $0.hasPrefix("watch.doppler_threshold must be 2 or more") })
        XCTAssertTrue(WatchSettings().problems.isEmpty)
    }
}
