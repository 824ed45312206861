import WatchCore
import XCTest

/// Decisions, their refusals and their receipts.
final class DecisionTests: XCTestCase {
    func testArmingWithNoAnchorIsRefused() {
        var h = Harness()
        h.fixes(5) { _ in (0, 0) }
        let a = h.send(.armSwitch(on: true))
        XCTAssertEqual(a.compactMap(\.refusal), [.noAnchor])
        XCTAssertEqual(h.watch.alarm, .off, "the ring does not pretend to be armed")
        XCTAssertEqual(Words.refusal(.noAnchor), "Can't arm: no anchor marked, the alarm comes on when you mark it")
    }

    func testArmingWithAnAnchorArmsWithAReceipt() {
        var h = Harness()
        h.anchored(armed: false)
        let a = h.send(.armSwitch(on: true))
        XCTAssertEqual(a.compactMap(\.acceptedChirp), [.arm])
        XCTAssertEqual(a.compactMap(\.receipt).first?.alarm, .armed)
        XCTAssertEqual(h.watch.alarm, .armed)
    }

    func testArmingWhileAlreadyOutsideRingsAtOnceAfterConfirmation() {
        var h = Harness()
        h.anchored(armed: false)
        h.fixes(30) { _ in (60, 0) }
        XCTAssertEqual(h.verdictKind, .dragging, "position is judged with the alarm off too")
        h.send(.armSwitch(on: true))
        XCTAssertEqual(h.watch.alarm, .ringing(episode: 1))
    }

    func testReleaseIsRefusedWhileArmed() {
        var h = Harness()
        h.anchored(armed: true)
        let a = h.send(.decision(.release))
        XCTAssertEqual(a.compactMap(\.refusal), [.armedRelease])
        XCTAssertNotNil(h.watch.anchor)
        h.send(.armSwitch(on: false))
        let b = h.send(.decision(.release))
        XCTAssertEqual(b.compactMap(\.acceptedChirp), [.release])
        XCTAssertNil(h.watch.anchor)
        XCTAssertEqual(h.watch.verdict, .noAnchor)
    }

    func testMarkIsRefusedWhileArmed() {
        var h = Harness()
        h.anchored(armed: true)
        XCTAssertEqual(h.send(.decision(.mark(.here))).compactMap(\.refusal), [.armedMark])
    }

    func testASnoozeNamesItsEpisodeAndIsRefusedForAnyOther() {
        var h = Harness()
        h.anchored(armed: true)
        XCTAssertEqual(h.send(.decision(.snooze(episode: 1))).compactMap(\.refusal), [.notRinging])
        h.fixes(40) { _ in (60, 0) }
        XCTAssertEqual(h.watch.alarm, .ringing(episode: 1))
        XCTAssertEqual(h.send(.decision(.snooze(episode: 7))).compactMap(\.refusal), [.wrongEpisode])
        XCTAssertEqual(h.watch.alarm.kind, .ringing)
        let ok = h.send(.decision(.snooze(episode: 1)))
        XCTAssertEqual(ok.compactMap(\.acceptedChirp), [.snooze])
        XCTAssertEqual(ok.compactMap(\.receipt).first?.until, h.now + .seconds(300))
        // A second client answering the alarm already snoozed.
        XCTAssertEqual(h.send(.decision(.snooze(episode: 1))).compactMap(\.refusal), [.wrongEpisode])
        XCTAssertEqual(Words.refusal(.wrongEpisode), "Can't snooze: that alarm was already answered")
    }

    func testRadiusOutsideItsRangeIsRefused() {
        var h = Harness()
        h.anchored(armed: true)
        XCTAssertEqual(h.send(.decision(.setRadius(2))).compactMap(\.refusal), [.radiusOutOfRange])
        XCTAssertEqual(h.send(.decision(.setRadius(Meters(.nan)))).compactMap(\.refusal), [.radiusOutOfRange])
        XCTAssertEqual(h.send(.decision(.setRadius(45))).compactMap(\.acceptedChirp), [.radiusStep])
        XCTAssertEqual(h.watch.radius, 45)
    }

    func testWideningTheRadiusEndsCheckingForFixesNowInside() {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(6) { _ in (40, 0) }
        XCTAssertEqual(h.verdictKind, .checking)
        h.send(.decision(.setRadius(60)))
        XCTAssertEqual(h.verdictKind, .holding)
    }

    func testMarkAveragesTheLastFewGoodFixesNotOne() {
        var h = Harness()
        // Five fixes spread east-west around 10 m east; the last alone is 14 m east.
        for e in [6.0, 8, 10, 12, 14] {
            h.send(.reading(h.reading(east: e, north: 0)))
            h.wait(1)
        }
        h.send(.decision(.mark(.here)))
        let anchor = try! XCTUnwrap(h.watch.anchor)
        XCTAssertEqual(Geodesy.distance(anchor, Harness.at(east: 10, north: 0)).value, 0, accuracy: 0.05)
    }

    func testMarkNeedsAFewRecentGoodFixes() {
        var h = Harness()
        h.send(.reading(h.reading(east: 0, north: 0)))
        XCTAssertEqual(h.send(.decision(.mark(.here))).compactMap(\.refusal), [.noGoodFix])
        h.fixes(2) { _ in (0, 0) }
        XCTAssertNotNil(h.send(.decision(.mark(.here))).compactMap(\.receipt).first)
        // Fixes too poor for the radius don't count toward a mark.
        var p = Harness()
        p.fixes(5, accuracy: 500) { _ in (0, 0) }
        XCTAssertEqual(p.send(.decision(.mark(.here))).compactMap(\.refusal), [.noGoodFix])
    }

    func testMarkByBearingAndDistanceFromHere() {
        var h = Harness()
        h.fixes(5) { _ in (0, 0) }
        h.send(.decision(.mark(.offset(bearing: 90, distance: 40))))
        let anchor = try! XCTUnwrap(h.watch.anchor)
        XCTAssertEqual(Geodesy.distance(anchor, Harness.origin).value, 40, accuracy: 0.01)
        XCTAssertEqual(Geodesy.bearing(from: Harness.origin, to: anchor), 90, accuracy: 0.01)
        var far = Harness()
        far.fixes(5) { _ in (0, 0) }
        XCTAssertEqual(far.send(.decision(.mark(.offset(bearing: 0, distance: 5000)))).compactMap(\.refusal), [.markTooFar])
    }

    func testEveryRefusalHasOneLineInTheProductWords() {
        for r in Refusal.allCases {
            let line = Words.refusal(r)
            XCTAssertTrue(line.contains(": "), "Label: consequence: \(line)")
            XCTAssertFalse(line.contains("\u{2014}"))
            XCTAssertEqual(line.first.map { String($0) }, line.first.map { String($0).uppercased() })
        }
    }
}
