import Glibc
import WatchCore
import XCTest

/// A slow drag whose run beyond the alert radius the receiver's own speed saw as the boat moving
/// away rings once the run stands at `persistFloor`; a run the speed did not see still waits for
/// the receiver's longest quick outing (Docs/verdict.md, "Persistence: a drag stays out";
/// issue 24, item 8). A quick outing is the position's, and comes back; a speed that is the
/// receiver's own, not worked out from its positions, shows none of it.
final class SlowDragTheSpeedSawTests: XCTestCase {
    /// The boat 30 m north of the anchor with a 40 m radius, its fixes 1 m either side each
    /// second, its speed 0.03 m/s north or south by turns (the Doppler's own jitter), and every
    /// 20 minutes from the second minute an excursion of the position alone straight away from
    /// the anchor, 9 m out over 8 s, held 72 s and back over 8 s (inside the radius but for the
    /// jitter): the longest quick outing is about 82 s, so a run the speed did not see waits
    /// about 62 s. From 3,700 s `place(t)`
    /// gives how far beyond 30 m the boat's fixes stand `t` seconds on, and `speed(t)` its
    /// reported speed north (nil: the jitter as before). With `sway`, the speed surges that much
    /// each way over 4 minutes too (a boat on its rode), so its spread at anchor is larger.
    /// Returns when it rang, nil if never in the hour after.
    private func firstRing(_ configure: (inout WatchSettings) -> Void = { _ in },
                           place: (Double) -> Double, speed: (Double) -> Double? = { _ in nil },
                           speedFromPositions: Bool = false, sway: Double = 0) -> Double? {
        var h = Harness.armed(radius: 40, configure)
        var last: Double?
        for i in 0..<7300 {
            let into = Double((i - 120) % 1200)
            var out = 0.0
            if i >= 120, i < 3700, into < 88 { out = 9 * min(into / 8, 1, (88 - into) / 8) }
            let t = Double(i - 3700)
            if i >= 3700 { out = place(t) }
            let d = 30 + out + (i % 2 == 0 ? 1 : -1)
            var v = (i >= 3700 ? speed(t) : nil) ?? (i % 2 == 0 ? 0.03 : -0.03) + sway * sin(2 * .pi * Double(i) / 240)
            if speedFromPositions, let last { v = d - last }
            last = d
            if h.sendAlongLine(north: d, speed: v) { return Double(i) }
        }
        return nil
    }

    /// The drag: 0.1 m/s (0.2 kn) straight out from 3,700 s, its speed saying so. Its steady
    /// fixes all stand beyond the radius from 3,810 s.
    private func drag(_ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        firstRing(configure, place: { 0.1 * $0 }, speed: { _ in 0.1 })
    }

    /// The speed saw the run: it rings at the floor's 45 s and a few seconds of evidence after the
    /// fixes stand beyond the radius, where waiting for 0.75 of the longest outing (about 62 s)
    /// rang 16 s later.
    func testASlowDragTheSpeedSawRingsAtTheFloor() throws {
        let seen = try XCTUnwrap(drag(), "the slow drag never rang")
        XCTAssertGreaterThanOrEqual(seen, 3810 + 45, "it rang before the run stood at the floor")
        XCTAssertLessThanOrEqual(seen, 3810 + 55, "the run the speed saw still waited for the outings")
        let unseen = try XCTUnwrap(drag { $0.persistSpeed = 0 }, "without the speed's word the drag never rang")
        XCTAssertGreaterThanOrEqual(unseen, seen + 10, "the outings' wait was no longer than the floor: the test shows nothing")
    }

    /// A step of the fixes 14 m out over 4 s that stands there 54 s and comes back (the regression
    /// check's good 6 m night 119 looked so), the speed saying the boat moves away at 0.05 m/s
    /// all the while (about its spread at anchor, as 119's was): the speed carried the
    /// boat a fraction of the way the fixes rose, so it waits for the outings and never rings;
    /// holding the speed to its average alone (`WatchGuard.persistSpeedTrail` off), it rings.
    func testAStepTheSpeedDidNotSeeWaitsForTheOutings() {
        let step: (Double) -> Double = { t in t < 4 ? 3.5 * t : t < 58 ? 14 : 0 }
        let away: (Double) -> Double? = { t in t < 58 ? 0.05 : nil }
        XCTAssertNil(firstRing(place: step, speed: away), "a step the speed did not see rang")
        XCTAssertNotNil(firstRing({ $0.guardsOff.insert(.persistSpeedTrail) }, place: step, speed: away),
                        "with the speed held to its average alone the step never rang: the test shows nothing")
    }

    /// The same step on a speed that surges 0.2 m/s each way at anchor, the speed moving with
    /// the step (0.3 m/s away for its first 28 s, as the good receiver's night 210 at a 6 m
    /// margin did), then a little toward the anchor: over the run and the trail the speed
    /// carried the boat as far as they ask, but when the run stands at the floor it has
    /// stopped, and a drag goes on. It waits for the outings and never rings; whatever the
    /// speed says now (`WatchGuard.persistSpeedNow` off), it rings.
    func testAStepWhoseSpeedHasStoppedWaitsForTheOutings() {
        let step: (Double) -> Double = { t in t < 4 ? 3.5 * t : t < 58 ? 14 : 0 }
        let moved: (Double) -> Double? = { t in t < 28 ? 0.3 : t < 58 ? -0.03 : nil }
        XCTAssertNil(firstRing(place: step, speed: moved, sway: 0.2), "a step whose speed had stopped rang")
        XCTAssertNotNil(firstRing({ $0.guardsOff.insert(.persistSpeedNow) }, place: step, speed: moved, sway: 0.2),
                        "whatever the speed says now the step never rang: the test shows nothing")
    }

    /// Fixes 13 m out for 35 s, back inside for 20 s (which ends the run), then out again for
    /// 58 s, the speed saying the boat surged 0.1 m/s away while they were inside, 0.06 m/s toward
    /// the anchor for the first 30 s of the second stand and 0.1 m/s away since: over the last
    /// 90 s the fixes did not rise, so the trail says nothing against them, and the speed carries
    /// the boat away now, but over the run it carried it nowhere, and it waits for the outings
    /// and never rings. With the run's average not asked (`WatchGuard.persistSpeedAway` off), it
    /// rings.
    func testFixesOutAgainWhileTheSpeedWentNowhereWaitForTheOutings() {
        let again: (Double) -> Double = { t in t < 35 ? 13 : t < 55 ? 7 : t < 113 ? 13 : 0 }
        let surge: (Double) -> Double? = { t in t < 35 ? nil : t < 55 ? 0.1 : t < 85 ? -0.06 : t < 113 ? 0.1 : nil }
        XCTAssertNil(firstRing(place: again, speed: surge), "fixes out again while the speed went nowhere over the run rang")
        XCTAssertNotNil(firstRing({ $0.guardsOff.insert(.persistSpeedAway) }, place: again, speed: surge),
                        "with the speed's average not asked the fixes never rang: the test shows nothing")
    }

    /// A speed worked out from the positions moves with them: fixes that creep out at 0.1 m/s
    /// for 165 s, the last 55 s beyond the radius, and come back, their speed saying the same, are the
    /// receiver's wander, and don't ring. Counted as the boat's own speed, they ring.
    func testASpeedWorkedOutFromPositionsNeverShortensTheWait() {
        let creep: (Double) -> Double = { t in t < 165 ? 0.1 * t : 0 }
        XCTAssertNil(firstRing(place: creep, speedFromPositions: true), "a creep seen by a speed from positions rang")
        XCTAssertNotNil(firstRing({ $0.guardsOff.insert(.persistSpeedIndependent) }, place: creep, speedFromPositions: true),
                        "with the speed taken as the boat's own (`WatchGuard.persistSpeedIndependent` off) the creep never rang: the test shows nothing")
    }
}
