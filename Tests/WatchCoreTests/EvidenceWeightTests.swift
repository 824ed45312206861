#if canImport(Glibc)
import Glibc
#endif
import WatchCore
import XCTest

/// The evidence beyond "one distance, one vote" (Docs/verdict.md): how far and how long the boat
/// stands beyond the alert radius in the receiver's own wander, the reported accuracy, a window
/// measured in time, and a window that is judged again when the alert radius changes.
final class EvidenceWeightTests: XCTestCase {
    // MARK: Further and longer

    func testFurtherBeyondTheRadiusRingsSooner() {
        func rang(at east: Double) -> Double? {
            var h = Harness()
            h.anchored(armed: true)
            return h.secondsUntilRinging { _ in (east, 0) }
        }
        // One wander is 5 m: 40 m adds 1 a second (20 s), 45 m 2 (10 s), 65 m the most one fix may add, 5 (4 s).
        let near = rang(at: 40), mid = rang(at: 45), far = rang(at: 65)
        XCTAssertEqual(near ?? 0, 19, accuracy: 1.5)
        XCTAssertEqual(mid ?? 0, 9, accuracy: 1.5)
        XCTAssertEqual(far ?? 0, 3, accuracy: 1.5)
    }

    func testWithinTheDeadbandBuildsNothing() {
        // The deadband alone: persistence (SlowDragPersistsTests) out of reach.
        var h = Harness { $0.persistFloor = .seconds(100_000) }
        h.anchored(armed: true)
        // 34 m: beyond the 30 m radius, but less than one wander (the deadband) beyond it.
        h.fixes(600) { _ in (34, 0) }
        // No evidence; and since the fixes say the boat is beyond the radius, not Holding either
        // (NeverHoldingOutsideTests): Checking with nothing filled.
        XCTAssertEqual(h.watch.verdict, .checking(progress: 0))
        XCTAssertEqual(h.watch.alarm, .armed)
    }

    /// The same boat with persistence: once the wander is measured (the swing span, 5 minutes
    /// after the mark) and every fix has stood beyond the radius for `persistFloor` (45 s; no
    /// quick outing learnt), the fixes count from the radius itself and it rings a few seconds on.
    func testStandingJustBeyondRingsOnceItPersists() throws {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(290) { _ in (34, 0) }
        XCTAssertEqual(h.watch.alarm, .armed, "rang before the wander was measured")
        let ring = try XCTUnwrap(h.secondsUntilRinging(limit: 120) { _ in (34, 0) }, "a boat standing beyond never rang")
        XCTAssertGreaterThanOrEqual(ring, 45, "rang before the floor")
    }

    /// A run that has held is the evidence (`WatchSettings.persistLeast`): once every fix has
    /// stood beyond the radius for the floor, `fastest` (3 s) more of them ring, however little
    /// beyond they stand. A slow drag lies just beyond for minutes; counted only by how far, half
    /// a meter in a wander of about 4 m, it took about 40 s more.
    func testARunThatHasHeldRingsWithinTheFastest() throws {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(400) { _ in (29, 0) }
        XCTAssertEqual(h.watch.alarm, .armed)
        let ring = try XCTUnwrap(h.secondsUntilRinging(limit: 300) { _ in (30.5, 0) }, "a boat standing beyond never rang")
        XCTAssertGreaterThanOrEqual(ring, 45, "rang before the run held for the floor")
        XCTAssertLessThanOrEqual(ring, 45 + 3 + 1, "the run held, and it still waited for the distance to add up")
    }

    /// ... but only while the run still stands out as far as it has on average
    /// (`WatchGuard.persistRising`): a receiver's excursion that held beyond the radius past the
    /// floor and is falling back counts only by how far it stands. Here the fixes stand 3 m
    /// beyond for 30 s, then 1 m beyond for 25 s, then inside again; counted in full once the run
    /// held at 45 s, they rang 3 s later (poor tuning nights 31, 354 and 785, Docs/benchmarks.md).
    func testAHeldRunFallingBackCountsOnlyByHowFarItStands() {
        func rang(_ configure: (inout WatchSettings) -> Void) -> Double? {
            var h = Harness(configure)
            h.anchored(armed: true)
            h.fixes(400) { _ in (29, 0) }
            XCTAssertEqual(h.watch.alarm, .armed)
            return h.secondsUntilRinging(limit: 120) { t in (t < 30 ? 33 : t < 55 ? 31 : 29, 0) }
        }
        XCTAssertNil(rang { _ in }, "an excursion falling back rang")
        XCTAssertNotNil(rang { $0.guardsOff = [.persistRising] }, "without the guard it should ring: the test shows nothing")
    }

    func testWanderingOutAndBackNeverRings() {
        var h = Harness()
        h.anchored(armed: true)
        // Out to 41 m for 12 s, back at 10 m for 8 s, all night long: the returns take away
        // more than the excursions add.
        var checked = false
        for i in 0..<1200 {
            h.send(.reading(h.reading(east: i % 20 < 12 ? 41 : 10, north: 0)))
            if h.verdictKind == .checking { checked = true }
            h.wait(1)
        }
        XCTAssertTrue(checked, "the wander was long enough to be checked")
        XCTAssertEqual(h.watch.alarm, .armed)
    }

    func testCheckingProgressNeverRunsBackwardsWhileOutside() {
        var h = Harness { $0.confirmation = .seconds(60); $0.fastest = .seconds(12) }
        h.anchored(armed: true)
        var progress: [Double] = []
        // Outside, drifting out for 5 s and easing back for 5 s.
        for i in 0..<40 {
            let e = 45 + Double(i % 10 < 5 ? i % 10 : 10 - i % 10)
            h.send(.reading(h.reading(east: e, north: 0)))
            if case .checking(let p) = h.watch.verdict { progress.append(p) }
            h.wait(1)
        }
        XCTAssertGreaterThan(progress.count, 10)
        XCTAssertEqual(progress, progress.sorted(), "progress never runs backwards while the boat stays beyond the deadband")
    }

    // MARK: The receiver's own wander

    func testTheWanderIsMeasuredWhileAnchored() {
        func wander(spread: Double) -> Meters? {
            var h = Harness { $0.noiseFloor = 1; $0.noisePrior = 5; $0.noisePriorSpan = .seconds(600); $0.noiseSpan = .seconds(1800) }
            h.anchored(armed: true)
            // 20 minutes lying 15 m out, the GPS swinging `spread` m either way every 20 s.
            h.fixes(1200) { i in (15 + spread * sin(Double(i) * 2 * .pi / 20), 0) }
            return h.watch.status(at: h.now).wander
        }
        let calm = wander(spread: 1), rough = wander(spread: 8)
        XCTAssertNotNil(calm)
        XCTAssertNotNil(rough)
        XCTAssertLessThan(calm?.value ?? 99, 7, "a calm receiver talks the watch down from its prior (a 10 m wander)")
        XCTAssertGreaterThan(rough?.value ?? 0, 9, "a rough one up")
    }

    func testAReceiverThatWandersMoreNeedsToBeFurtherOut() {
        func rang(spread: Double) -> Double? {
            var h = Harness { $0.noiseFloor = 1; $0.noisePrior = 2; $0.noisePriorSpan = .seconds(600); $0.noiseSpan = .seconds(1800) }
            h.anchored(armed: true)
            h.fixes(1800) { i in (10 + spread * sin(Double(i) * 2 * .pi / 30), 0) }
            return h.secondsUntilRinging { _ in (40, 0) }
        }
        let calm = rang(spread: 1), rough = rang(spread: 6)
        XCTAssertNotNil(calm)
        XCTAssertLessThan(calm ?? 99, 10, "10 m beyond the radius is far beyond a calm receiver's wander")
        XCTAssertGreaterThan(rough ?? 999, (calm ?? 0) * 2, "and not so far beyond a rough one's")
    }

    // MARK: Reported accuracy

    func testAFixCountsAsOutsideOnlyBeyondItsWeightedAccuracy() {
        // Radius 30 m, weight 0.5: a fix at 40 m with eph 20 m is 40 - 10 = 30 m: on the radius.
        var h = Harness { $0.accuracyWeight = 0.5 }
        h.anchored(armed: true)
        h.fixes(60, accuracy: 20) { _ in (40, 0) }
        // On the radius once weighted: no evidence (Holding, or Checking with nothing filled).
        XCTAssertTrue([.holding, .checking(progress: 0)].contains(h.watch.verdict),
                      "a vague fix just beyond the radius is no evidence of a drag: \(h.watch.verdict)")
        // The same distance with eph 4 m: 40 - 2 = 38 m, 1.6 wanders out.
        h.fixes(60, accuracy: 4) { _ in (40, 0) }
        XCTAssertEqual(h.watch.alarm, .ringing(episode: 1))
    }

    // MARK: The window is time, not fixes

    func testOneAndTenHertzRingAlike() {
        func rang(rate: Int) -> Double? {
            var h = Harness()
            h.anchored(armed: true)
            return h.secondsUntilRinging(rate: rate) { t in (t < 20 ? 10 : 45, 0) }
        }
        let slow = rang(rate: 1), fast = rang(rate: 10)
        XCTAssertNotNil(slow)
        XCTAssertNotNil(fast)
        XCTAssertEqual(slow ?? 0, fast ?? 99, accuracy: 1.5, "the same track rings at the same time at 1 Hz and 10 Hz")
    }

    // MARK: A new alert radius judges the window again

    func testALargerAlertRadiusJudgesTheWindowAgain() {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(8) { _ in (45, 0) }
        XCTAssertEqual(h.verdictKind, .checking)
        h.send(.decision(.setRadius(60)))
        XCTAssertEqual(h.verdictKind, .holding, "fixes at 45 m are inside a 60 m alert radius at once")
        h.send(.decision(.setRadius(30)))
        XCTAssertEqual(h.verdictKind, .checking, "and outside a 30 m one again, from the same window")
    }
}

/// Radius advice: the watch says when the receiver wanders too far for the margin between the
/// swing and the alert radius, with the radius that would ring reliably; it never widens it.
final class RadiusAdviceTests: XCTestCase {
    func night(spread: Double, radius: Double) -> (WatchStatus, Watch) {
        var h = Harness { $0.noiseFloor = 1; $0.noisePrior = 5; $0.noisePriorSpan = .seconds(600); $0.noiseSpan = .seconds(1800) }
        h.send(.decision(.setRadius(Meters(radius))))
        h.anchored(armed: true)
        // 30 minutes lying 20 m out, the GPS wandering `spread` m either way over a minute.
        h.fixes(1800) { i in (20 + spread * sin(Double(i) * 2 * .pi / 60), 0) }
        return (h.watch.status(at: h.now), h.watch)
    }

    func testAReceiverThatWandersTooFarForTheRadiusGetsTheAdvice() {
        let (status, watch) = night(spread: 12, radius: 35)
        let advice = status.radiusAdvice ?? ""
        XCTAssertTrue(advice.hasPrefix("GPS wanders about "), advice)
        XCTAssertTrue(advice.hasSuffix(" m or more rings reliably"), advice)
        XCTAssertTrue(advice.contains(": an alert radius of "), advice)
        let reliable = watch.reliableRadius?.value ?? 0
        XCTAssertGreaterThan(reliable, 35)
        XCTAssertEqual(reliable.truncatingRemainder(dividingBy: 5), 0, "rounded up to 5 m")
        XCTAssertEqual(status.radius, 35, "advice only: the alert radius stays what the skipper set")
        XCTAssertFalse(advice.contains("\u{2014}"))
    }

    func testACalmReceiverOrAWideRadiusGetsNone() {
        XCTAssertNil(night(spread: 1, radius: 35).0.radiusAdvice, "a calm receiver: 15 m of margin is plenty")
        XCTAssertNil(night(spread: 12, radius: 80).0.radiusAdvice, "a rough one with a wide radius")
        XCTAssertNotNil(night(spread: 1, radius: 35).0.wander, "the wander is still reported")
    }

    /// 2D stretches that wander further than the 3D fixes (2 minutes in every 12) need the margin
    /// too: the same night with calm 2D fixes gets no advice.
    func testTwoDStretchesThatWanderFurtherGetTheAdvice() {
        func night(twoDSpread: Double) -> WatchStatus {
            var h = Harness { $0.noiseFloor = 1; $0.noisePrior = 5; $0.noisePriorSpan = .seconds(600); $0.noiseSpan = .seconds(1800) }
            h.send(.decision(.setRadius(42)))
            h.anchored(armed: true)
            for i in 0..<3600 {
                let twoD = i % 720 >= 600
                let east = 20 + (twoD ? twoDSpread : 4) * sin(Double(i) * 2 * .pi / 60)
                h.send(.reading(h.reading(east: east, north: 0, accuracy: 5, mode: twoD ? .twoD : .threeD)))
                h.wait(1)
            }
            return h.watch.status(at: h.now)
        }
        XCTAssertNil(night(twoDSpread: 4).radiusAdvice, "2D as calm as 3D: 22 m of margin is plenty")
        let advice = night(twoDSpread: 16).radiusAdvice ?? ""
        XCTAssertTrue(advice.hasPrefix("GPS wanders about "), advice)
    }

    func testNoAdviceBeforeTheWanderIsMeasured() {
        var h = Harness { $0.noiseFloor = 1; $0.noisePrior = 20 }
        h.anchored(armed: true)
        h.fixes(60) { _ in (20, 0) }
        XCTAssertNil(h.watch.status(at: h.now).radiusAdvice, "a minute in, nothing is measured yet")
        XCTAssertNil(h.watch.status(at: h.now).wander)
    }
}
