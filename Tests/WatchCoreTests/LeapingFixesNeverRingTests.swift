import Glibc
import WatchCore
import XCTest

/// A fix stream that leaps while the receiver's own speed says the boat stayed never rings on
/// position alone (Docs/verdict.md, "Leaping fixes"; `WatchGuard.jumps`). Multipath near a mast
/// can throw a receiver's fixes 20 or 40 m for a few seconds; no boat moves 20 m in a second,
/// and the receiver's speed did not see it move. Until a fix stands inside the radius again, the
/// fixes beyond it count once they persist, or with the Doppler; a leap that stays still rings,
/// through persistence. The step is physics, so the speed needn't have earned its trust first:
/// leaps in a night's first minutes are leaps too.
final class LeapingFixesNeverRingTests: XCTestCase {
    /// Shipped defaults, a 40 m radius; the boat lies 30 m north of the anchor, its fixes
    /// wandering 1.5 m along the line and 0.7 m across it, each with a Doppler speed (when
    /// `speed`) of a few cm/s and `doppler` m/s away from the anchor once the boat drags.
    /// `place(i)` adds meters along the line at second `i`; `silent(i)` drops that second's fix.
    /// Returns the second it rang, nil if it never did in 90 minutes; `holdingWhileBeyond`
    /// counts seconds shown Holding while the last three fixes stood beyond the radius.
    private func run(speed: Bool = true, guardOff: Bool = false, off: Set<WatchGuard> = [],
                     tune: @escaping (inout WatchSettings) -> Void = { _ in }, seed: UInt64 = 12345,
                     doppler: (Int) -> Double = { _ in 0 }, silent: (Int) -> Bool = { _ in false },
                     place: (Int) -> Double) -> (ring: Int?, holdingWhileBeyond: Int) {
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 40
            if guardOff { s.guardsOff.insert(.jumps) }
            s.guardsOff.formUnion(off)
            tune(&s)
        }
        h.anchored(armed: true)
        var n = SeededNormal(x: seed)
        var beyondRun = 0, holdingWhileBeyond = 0
        for i in 0..<5400 {
            let along = 30 + 1.5 * n.next() + place(i), across = 0.7 * n.next(), still = abs(0.05 * n.next())
            if silent(i) { h.wait(1); continue }
            let v = doppler(i)
            let r = GPSReading(mode: .threeD, position: Harness.at(east: across, north: along), accuracy: 5,
                               speed: speed ? (v > 0 ? v : still) : nil, track: speed ? 0 : nil, received: h.now)
            h.send(.reading(r))
            beyondRun = along > 40 ? beyondRun + 1 : 0
            if beyondRun >= 3, h.verdictKind == .holding { holdingWhileBeyond += 1 }
            if case .ringing = h.watch.alarm { return (i, holdingWhileBeyond) }
            h.wait(1)
        }
        return (nil, holdingWhileBeyond)
    }

    /// Leaps of 20 to 40 m out along the line (10 to 30 m beyond the radius, seven to twenty
    /// wanders), held 5 to 20 s, every ten minutes from the hour on.
    private static func leaps(_ i: Int) -> Double {
        let sizes: [(Double, Int)] = [(20, 5), (25, 10), (30, 15), (40, 20), (20, 10), (35, 8)]
        guard i >= 3600 else { return 0 }
        let k = (i - 3600) / 300, into = (i - 3600) % 300
        guard k < sizes.count, into < sizes[k].1 else { return 0 }
        return sizes[k].0
    }

    /// Leaps of 20 to 40 m out along the line in a night's first ten minutes, before the speed
    /// has earned its trust (`dopplerTrustSpan`, 10 minutes): the first two before the step has
    /// been measured (`swingSpan`, 5 minutes), judged against its prior.
    private static let earlyLeaps: [(start: Int, size: Double, length: Int)] = [(90, 30, 8), (200, 20, 12), (330, 40, 5), (480, 25, 15)]
    private static func earlyLeap(_ i: Int) -> Double {
        earlyLeaps.first { i >= $0.start && i < $0.start + $0.length }?.size ?? 0
    }

    func testLeapsWhileTheTrustedSpeedSaysStillNeverRing() {
        let r = run(place: Self.leaps)
        XCTAssertNil(r.ring, "a leap of the fixes that the receiver's trusted speed never saw rang")
        XCTAssertEqual(r.holdingWhileBeyond, 0, "Holding shown while the fixes stood beyond the radius")
    }

    /// The same readings with the guard removed ring: the readings do test it. With the turning
    /// rule out too (`WatchGuard.positionTurning`, which on these white-noise plateaus takes the
    /// credit of the fixes that stand a step below the leap's highest) they ring on the first leap.
    func testTheLeapRingsWithoutTheGuard() throws {
        XCTAssertNotNil(run(guardOff: true, place: Self.leaps).ring, "the leaps never rang without the guard")
        let ring = try XCTUnwrap(run(guardOff: true, off: [.positionTurning], place: Self.leaps).ring, "the leap never rang without the guards")
        XCTAssertLessThanOrEqual(ring, 3605, "the first leap rang late without the guards")
    }

    /// In a night's first minutes the speed has not yet earned its trust, and need not have:
    /// a step no boat makes, that the reading's speed did not see, is a leap then too.
    func testLeapsBeforeTheSpeedIsTrustedNeverRing() {
        let r = run(place: Self.earlyLeap)
        XCTAssertNil(r.ring, "a leap in the night's first minutes rang")
        XCTAssertEqual(r.holdingWhileBeyond, 0, "Holding shown while the fixes stood beyond the radius")
    }

    /// The same readings ring on the first early leap when only a trusted speed may call a leap
    /// (`WatchGuard.jumpsUntrusted`).
    func testEarlyLeapsRingWhenOnlyATrustedSpeedCallsALeap() throws {
        let untrusted = try XCTUnwrap(run(off: [.jumpsUntrusted], place: Self.earlyLeap).ring, "early leaps never rang")
        XCTAssertLessThan(untrusted, 90 + 8, "the first early leap did not ring with only a trusted speed calling leaps")
    }

    /// In the first minute, before the step has been measured, a leap must clear the step's
    /// prior (`jumpStepPrior`, 5 m: 25 m in a second): a 40 m leap 20 s after the mark rings
    /// none, and rings with no prior.
    func testALeapInTheFirstMinuteClearingThePriorNeverRings() throws {
        let leap: (Int) -> Double = { $0 >= 20 && $0 < 30 ? 40 : 0 }
        let r = run(place: leap)
        XCTAssertNil(r.ring, "a 40 m leap in the first minute rang")
        XCTAssertEqual(r.holdingWhileBeyond, 0)
        let bare = try XCTUnwrap(run(tune: { $0.jumpStepPrior = 1000 }, place: leap).ring, "the first-minute leap never rang with no prior")
        XCTAssertLessThan(bare, 30)
    }

    /// A reading whose speed saw the early leap is no disagreement: it counts as any fix. At
    /// 2.5 m/s away from the anchor on the leap's first fix (a speed that moves with the
    /// position), and at 20 m/s (gpsd's speed from the last two positions, for a receiver
    /// without a Doppler: no boat's, so no speed at all).
    func testAnEarlyLeapTheReadingsSpeedSawCountsAsAnyFix() throws {
        for v in [2.5, 20] {
            let doppler: (Int) -> Double = { i in Self.earlyLeaps.contains { $0.start == i } ? v : 0 }
            let guarded = try XCTUnwrap(run(doppler: doppler, place: Self.earlyLeap).ring, "a leap the speed saw at \(v) m/s never rang")
            let bare = try XCTUnwrap(run(guardOff: true, doppler: doppler, place: Self.earlyLeap).ring)
            XCTAssertEqual(guarded, bare, "a leap the speed saw at \(v) m/s rang at \(guarded) s, \(bare) s without the guard")
        }
    }

    /// A leap while the smoothed speed says the boat moves away is no disagreement, even where
    /// the leap's own reading says still: a boat dragging at 0.5 m/s from the hour on (a 70 m
    /// radius, so it stays inside), its fixes leaping 25 m out, beyond the radius, at its 50th
    /// second with that reading's speed a few cm/s, is not taken for a leap.
    func testALeapWhileTheSmoothedSpeedSaysMovingIsNoLeap() {
        var h = Harness { s in s = WatchSettings(); s.radius = 70 }
        h.anchored(armed: true)
        var n = SeededNormal(x: 99)
        var movingBefore = false, leapt = true
        for i in 0..<3660 {
            let drag = i >= 3600 ? 0.5 * Double(i - 3600) : 0, leap = i >= 3650 && i < 3655 ? 25.0 : 0
            let along = 30 + 1.5 * n.next() + drag + leap, across = 0.7 * n.next(), still = abs(0.05 * n.next())
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: across, north: along), accuracy: 5,
                                       speed: i >= 3600 && i != 3650 ? 0.5 : still, track: 0, received: h.now)))
            if i == 3649 { movingBefore = h.watch.noise.movingAway(h.watch.settings) }
            if i == 3650 { leapt = h.watch.afterJump }
            h.wait(1)
        }
        XCTAssertTrue(movingBefore, "the smoothed speed did not say the boat moved away before the leap")
        XCTAssertFalse(leapt, "a leap while the smoothed speed said the boat moved away was taken for one")
    }

    /// Without a speed nothing says the boat stayed: a leap counts as any fix (no boat has
    /// been shown to stay; the box judges where the fixes are).
    /// It rings at the same second as with the guard out, and on the first leap with the turning
    /// rule out too.
    func testWithoutASpeedTheLeapCountsAsAnyFix() throws {
        let ring = try XCTUnwrap(run(speed: false, place: Self.leaps).ring, "a leap without a speed never rang")
        let bare = try XCTUnwrap(run(speed: false, guardOff: true, place: Self.leaps).ring)
        XCTAssertEqual(ring, bare, "without a speed the guard held a leap")
        let plain = try XCTUnwrap(run(speed: false, off: [.positionTurning], place: Self.leaps).ring)
        XCTAssertLessThanOrEqual(plain, 3605)
    }

    /// A leap that stays (25 m out from the hour on) is where the fixes are: it rings once it
    /// has persisted (the run's floor, 45 s), not at once, and never shows Holding meanwhile.
    func testALeapThatStaysRingsOncePersistent() throws {
        let r = run { $0 >= 3600 ? 25 : 0 }
        let ring = try XCTUnwrap(r.ring, "a leap that stayed never rang")
        XCTAssertGreaterThanOrEqual(ring, 3600 + 40, "a leap that stayed rang before it persisted")
        XCTAssertLessThanOrEqual(ring, 3600 + 90)
        XCTAssertEqual(r.holdingWhileBeyond, 0)
    }

    /// A drag is no leap: at 2 and 4 m/s from the hour on, across a dropout of 20 s from its
    /// third second, it rings as soon after the fixes come back as without the guard.
    func testADragAcrossADropoutRingsAsWithoutTheGuard() throws {
        for v in [1.0, 2.0, 4.0] {
            let drag: (Int) -> Double = { $0 >= 3600 ? v * Double($0 - 3600) : 0 }
            let dropout: (Int) -> Bool = { $0 >= 3603 && $0 < 3623 }
            let doppler: (Int) -> Double = { $0 >= 3600 ? min(v, 2.9) : 0 }
            let guarded = try XCTUnwrap(run(doppler: doppler, silent: dropout, place: drag).ring, "\(v) m/s never rang")
            let bare = try XCTUnwrap(run(guardOff: true, doppler: doppler, silent: dropout, place: drag).ring)
            XCTAssertEqual(guarded, bare, "\(v) m/s across a dropout rang at \(guarded) s, \(bare) s without the guard")
            XCTAssertLessThanOrEqual(guarded, 3623 + 5, "\(v) m/s rang more than 5 s after the fixes came back")
        }
    }

    /// Once a fix stands inside the radius again the leap is over (`Watch.afterJump`): a drag
    /// after it counts on position alone again.
    func testALeapEndsWhenAFixStandsInsideAgain() {
        var h = Harness { s in s = WatchSettings(); s.radius = 40 }
        h.anchored(armed: true)
        var n = SeededNormal(x: 777)
        var during = false, after = true
        for i in 0..<3660 {
            let along = 30 + 1.5 * n.next() + (i >= 3600 && i < 3610 ? 25 : 0), across = 0.7 * n.next()
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: across, north: along), accuracy: 5,
                                       speed: abs(0.05 * n.next()), track: 0, received: h.now)))
            if i == 3605 { during = h.watch.afterJump }
            if i == 3620 { after = h.watch.afterJump }
            h.wait(1)
        }
        XCTAssertTrue(during, "a 25 m leap the trusted speed never saw was not taken for one")
        XCTAssertFalse(after, "the leap was not over once the fixes stood inside again")
        if case .ringing = h.watch.alarm { XCTFail("the leap rang") }
    }

    /// Across a dropout nothing is compared: silence tells nothing of how the boat moved. After
    /// 20 s without fixes the boat stands 180 m from the anchor (further than 5 m/s could have
    /// carried it), its speed saying still: it rings as without the guard (issue 24 item 1's
    /// far-outside case, with a trusted speed).
    func testAfterADropoutTheBoatFarOutsideRingsAsWithoutTheGuard() throws {
        let far: (Int) -> Double = { $0 >= 3620 ? 150 : 0 }
        let dropout: (Int) -> Bool = { $0 >= 3600 && $0 < 3620 }
        let guarded = try XCTUnwrap(run(silent: dropout, place: far).ring, "the boat 180 m out never rang")
        let bare = try XCTUnwrap(run(guardOff: true, silent: dropout, place: far).ring)
        XCTAssertEqual(guarded, bare, "180 m out after a dropout rang at \(guarded) s, \(bare) s without the guard")
        XCTAssertLessThanOrEqual(guarded, 3620 + 5)
    }

    /// A leap the reading's own speed saw (2.5 m/s away from the anchor, as a receiver whose
    /// speed moves with its position reports) is no disagreement: it counts as without the guard.
    func testALeapTheSpeedSawCountsAsWithoutTheGuard() throws {
        let doppler: (Int) -> Double = { $0 >= 3600 && $0 < 3603 ? 2.5 : 0 }
        let guarded = try XCTUnwrap(run(doppler: doppler, place: Self.leaps).ring, "a leap the speed saw never rang")
        let bare = try XCTUnwrap(run(guardOff: true, doppler: doppler, place: Self.leaps).ring)
        XCTAssertEqual(guarded, bare)
    }

    /// The speed is judged along the line to where the boat lay, not to where the fix leapt: a
    /// boat sailing across its line at 0.6 m/s, its fixes leaping 25 m east and 20 m out, shows
    /// 0.25 m/s away from the anchor along the line to the leapt fix, none along its own.
    func testALeapAcrossTheLineIsJudgedOnTheBoatsOwnLine() {
        var h = Harness { s in s = WatchSettings(); s.radius = 40 }
        h.anchored(armed: true)
        var n = SeededNormal(x: 4242)
        for i in 0..<4200 {
            let leap = i >= 3600 && (i - 3600) % 300 < 12
            let along = 30 + 1.5 * n.next() + (leap ? 20 : 0), across = 0.7 * n.next() + (leap ? 25 : 0)
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: across, north: along), accuracy: 5,
                                       speed: 0.6 + 0.05 * n.next(), track: 90, received: h.now)))
            if case .ringing = h.watch.alarm { return XCTFail("a leap across the line rang at \(i) s") }
            h.wait(1)
        }
    }

    /// Leaps teach nothing of the receiver's step (`NoiseEstimate.stepSquare`): learnt, 25 m
    /// leaps every minute would widen it until a leap no longer stood out from it.
    func testLeapsDoNotWidenWhatALeapIs() {
        func step(leaping: Bool) -> Double {
            var h = Harness { s in s = WatchSettings(); s.radius = 40 }
            h.anchored(armed: true)
            var n = SeededNormal(x: 31)
            for i in 0..<(3 * 3600) {
                let leap = leaping && i >= 3600 && i % 60 < 5
                let along = 30 + 1.5 * n.next() + (leap ? 25 : 0), across = 0.7 * n.next()
                h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: across, north: along), accuracy: 5,
                                           speed: abs(0.05 * n.next()), track: 0, received: h.now)))
                h.wait(1)
            }
            return h.watch.noise.stepSquare.squareRoot()
        }
        let calm = step(leaping: false), leapt = step(leaping: true)
        XCTAssertLessThan(leapt, 1.1 * calm, "two hours of leaps widened the step from \(calm) to \(leapt) m")
    }
}
