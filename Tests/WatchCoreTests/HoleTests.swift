import WatchCore
import XCTest

/// The holes issue 12 found, each named after the rule it broke. They run on the shipped
/// defaults (only the alert radius is set), so they hold the rule the box actually keeps.
final class HoleTests: XCTestCase {
    /// A boat at the origin on the shipped defaults, radius 30 m, one fix a second.
    struct Night {
        var h = Harness { s in s = WatchSettings() }

        init(radius: Double = 30) {
            h.send(.decision(.setRadius(Meters(radius))))
        }

        /// Anchored for `minutes` with a small deterministic wander about `lying` m east.
        mutating func anchored(minutes: Int = 10, lying: Double = 10) {
            h.fixes(5) { _ in (0, 0) }
            h.send(.decision(.mark(.here)))
            h.send(.armSwitch(on: true))
            h.fixes(minutes * 60) { i in (lying + 1.5 * Double((i * 7) % 5 - 2) / 2, Double((i * 3) % 5 - 2) / 2) }
        }
    }

    // MARK: 1. Intermittent GPS must not starve the watch

    /// A slow drag (0.07 m/s) while the receiver drops out for 12 s every 30 to 60 s.
    func dragThroughDropouts(_ dropout: (inout Harness) -> Void) -> (exit: Double, rang: Double?, far: Double) {
        var n = Night()
        n.anchored()
        let start = n.h.now
        var east = 10.0
        var exit: Double?
        var cycle = 0
        while (n.h.now - start).seconds < 3600, n.h.watch.alarm.kind != .ringing {
            let fixes = [30, 45, 60][cycle % 3] - 12
            for _ in 0..<fixes where n.h.watch.alarm.kind != .ringing {
                n.h.send(.reading(n.h.reading(east: east, north: 0)))
                n.h.wait(1)
                east += 0.07
                if exit == nil, east > 30 { exit = (n.h.now - start).seconds }
            }
            for _ in 0..<12 where n.h.watch.alarm.kind != .ringing {
                dropout(&n.h)
                east += 0.07
                if exit == nil, east > 30 { exit = (n.h.now - start).seconds }
            }
            cycle += 1
        }
        let rang: Double? = n.h.watch.alarm.kind == .ringing ? (n.h.now - start).seconds : nil
        return (exit ?? 0, rang, east)
    }

    func testIntermittentGPSMustNotStarveTheWatch_silentDropouts() {
        let r = dragThroughDropouts { h in h.wait(1) }
        XCTAssertNotNil(r.rang, "never rang; the boat ended \(Int(r.far)) m from the anchor")
        XCTAssertLessThan((r.rang ?? 1e9) - r.exit, 300, "a slow drag through dropouts rings within 5 minutes of the exit")
    }

    func testIntermittentGPSMustNotStarveTheWatch_noFixDropouts() {
        let r = dragThroughDropouts { h in
            h.send(.reading(.noFix(at: h.now)))
            h.wait(1)
        }
        XCTAssertNotNil(r.rang, "never rang; the boat ended \(Int(r.far)) m from the anchor")
        XCTAssertLessThan((r.rang ?? 1e9) - r.exit, 300)
    }

    func testIntermittentGPSMustNotStarveTheWatch_poorAccuracyBursts() {
        let r = dragThroughDropouts { h in
            h.send(.reading(h.reading(east: 0, north: 0, accuracy: 500)))
            h.wait(1)
        }
        XCTAssertNotNil(r.rang, "never rang; the boat ended \(Int(r.far)) m from the anchor")
        XCTAssertLessThan((r.rang ?? 1e9) - r.exit, 300)
    }

    func testReadingsTooSparseToJudgeRaiseTheGPSFault() {
        var n = Night()
        n.anchored(minutes: 2)
        // One fix every 15 s: each one usable, never enough to judge.
        for _ in 0..<20 {
            n.h.send(.reading(n.h.reading(east: 10, north: 0)))
            n.h.wait(15)
        }
        XCTAssertNotNil(n.h.watch.faults[.gpsLost], "sparse readings that can't judge add up to the GPS fault")
        XCTAssertEqual(n.h.watch.alarm, .armed, "never the drag siren")
    }

    // MARK: 2. Too few readings is never Holding

    func testTooFewReadingsIsNeverHolding_afterARestartWithTheAlarmLatched() {
        var n = Night()
        _ = n.h.watch.restore(anchor: Harness.origin, radius: 30, armed: true, ringingEpisode: 3, lastEpisode: 3, at: n.h.now)
        n.h.send(.reading(n.h.reading(east: 249, north: 0)))
        XCTAssertNotEqual(n.h.verdictKind, .holding, "one fix 249 m out is no evidence of holding")
        XCTAssertEqual(n.h.watch.alarm, .ringing(episode: 3))
        n.h.fixes(10) { _ in (249, 0) }
        XCTAssertEqual(n.h.verdictKind, .dragging)
    }

    func testTooFewReadingsIsNeverHolding_afterAGap() {
        var n = Night()
        n.anchored(minutes: 2)
        n.h.wait(40)
        n.h.send(.reading(n.h.reading(east: 60, north: 0)))
        XCTAssertNotEqual(n.h.verdictKind, .holding, "after a gap longer than the window one fix judges nothing")
        n.h.send(.reading(n.h.reading(east: 10, north: 0)))
        XCTAssertNotEqual(n.h.verdictKind, .holding, "nor does one inside")
    }

    func testTooFewReadingsIsNeverHolding_afterAFarMark() {
        var n = Night()
        n.h.fixes(10) { _ in (0, 0) }
        n.h.send(.decision(.mark(.offset(bearing: 90, distance: 900))))
        XCTAssertNotNil(n.h.watch.anchor)
        XCTAssertNotEqual(n.h.verdictKind, .holding, "the boat is 900 m from the anchor just marked")
        n.h.send(.armSwitch(on: true))
        n.h.fixes(10) { _ in (0, 0) }
        XCTAssertEqual(n.h.watch.alarm.kind, .ringing, "and it rings once armed")
    }

    func testTooFewReadingsIsNeverHolding_whenASnoozeEndsRightAfterAGap() {
        var n = Night()
        n.anchored(minutes: 2)
        n.h.fixes(60) { i in (min(10 + 5 * Double(i), 100), 0) }
        XCTAssertEqual(n.h.watch.alarm, .ringing(episode: 1))
        n.h.send(.decision(.snooze(episode: 1)))
        n.h.fixes(260) { _ in (100, 0) }
        // A gap, and the snooze ends with one fix 100 m out.
        n.h.wait(39)
        n.h.send(.reading(n.h.reading(east: 100, north: 0)))
        n.h.wait(2)
        XCTAssertEqual(n.h.watch.alarm, .ringing(episode: 2), "the snooze ended without evidence of holding: it rings again")
    }

    // MARK: 3. Unknown is immediate

    func testNoFixIsCantJudgeAtOnce() {
        var n = Night()
        n.anchored(minutes: 1)
        n.h.send(.reading(.noFix(at: n.h.now)))
        XCTAssertEqual(n.h.watch.verdict, .cantJudge(.noFix))
    }

    func testVeryPoorAccuracyIsCantJudgeAtOnce() {
        var n = Night()
        n.anchored(minutes: 1)
        n.h.send(.reading(n.h.reading(east: 10, north: 0, accuracy: 500)))
        XCTAssertEqual(n.h.watch.verdict, .cantJudge(.poorAccuracy))
    }

    /// How long a drag from 10 m at 0.3 m/s takes to ring with fixes of this kind.
    func secondsToRing(mode: GPSReading.Mode, accuracy: Double?) -> Double? {
        var n = Night()
        n.h.fixes(5) { _ in (0, 0) }
        n.h.send(.decision(.mark(.here)))
        n.h.send(.armSwitch(on: true))
        for i in 0..<600 {
            let d = 10 + 0.3 * Double(i)
            let r = GPSReading(mode: mode, position: Harness.at(east: d, north: 0), accuracy: accuracy.map { Meters($0) },
                               received: n.h.now)
            n.h.send(.reading(r))
            if n.h.watch.alarm.kind == .ringing { return Double(i) }
            n.h.wait(1)
        }
        return nil
    }

    func testMissingAccuracyDoesNotSkipTheGateSilently() {
        let known = secondsToRing(mode: .threeD, accuracy: 5)
        let unknown = secondsToRing(mode: .threeD, accuracy: nil)
        let nan = secondsToRing(mode: .threeD, accuracy: .nan)
        XCTAssertNotNil(unknown, "a fix with no reported accuracy is still evidence")
        XCTAssertGreaterThan(unknown ?? 0, (known ?? 999) + 2, "but weaker evidence than one with a reported accuracy")
        XCTAssertEqual(nan, unknown, "NaN is no accuracy at all")
    }

    func testTwoDFixesAreWeakerEvidenceNotDropped() {
        let threeD = secondsToRing(mode: .threeD, accuracy: 5)
        let twoD = secondsToRing(mode: .twoD, accuracy: 5)
        let rmcOnly = secondsToRing(mode: .twoD, accuracy: nil)
        XCTAssertNotNil(twoD, "a 2D fix is evidence")
        XCTAssertNotNil(rmcOnly, "an RMC-only source (2D, no accuracy) still rings")
        XCTAssertGreaterThan(twoD ?? 0, (threeD ?? 999) + 2, "a 2D fix is weaker evidence than a 3D one")
        XCTAssertLessThan(rmcOnly ?? 999, 200, "within a few minutes of leaving the circle at 67 s")
    }

    // MARK: 5. The evidence rule can't be configured away

    func testTheWatchKeysAreValidatedTogether() {
        XCTAssertEqual(WatchSettings().problems, [], "the defaults keep every rule")
        var s = WatchSettings()
        s.minFixes = 1
        XCTAssertTrue(s.problems.contains { $0.hasPrefix("watch.min_fixes") })
        s = WatchSettings()
        s.fastest = .seconds(1)
        XCTAssertTrue(s.problems.contains { $0.contains("one stray GPS reading could ring") })
        s = WatchSettings()
        s.window = .seconds(2)
        s.minFixes = 3
        XCTAssertTrue(s.problems.contains { $0.hasPrefix("watch.window") })
        s = WatchSettings()
        s.deadband = 0
        XCTAssertFalse(s.problems.isEmpty)
    }
}
