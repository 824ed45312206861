import WatchCore
import XCTest

final class ButtonAndSwitchTests: XCTestCase {
    func testAnyPressWhileRingingSnoozesTheCurrentEpisode() {
        for press in Press.allCases {
            var h = Harness()
            h.anchored(armed: true)
            h.fixes(40) { _ in (60, 0) }
            let a = h.send(.button(press))
            XCTAssertEqual(a.compactMap(\.acceptedChirp), [.snooze], "\(press)")
            guard case .snoozed(_, 1) = h.watch.alarm else { return XCTFail("\(press): \(h.watch.alarm)") }
        }
    }

    func testAShortPressWithNothingToDoIsHeardAndChangesNothing() {
        var h = Harness()
        h.anchored(armed: true)
        let a = h.send(.button(.short))
        XCTAssertEqual(a, [.chirp(.acknowledge)])
        XCTAssertEqual(h.watch.alarm, .armed)
    }

    func testALongPressMarksOnlyWithTheAlarmOff() {
        var h = Harness()
        h.fixes(5) { _ in (0, 0) }
        XCTAssertEqual(h.send(.button(.long)).compactMap(\.acceptedChirp), [.mark])
        h.send(.armSwitch(on: true))
        XCTAssertEqual(h.send(.button(.long)).compactMap(\.refusal), [.armedMark], "an elbow can't move the anchor of an armed watch")
    }

    func testAVeryLongPressReleasesOnlyWithTheAlarmOff() {
        var h = Harness()
        h.anchored(armed: true)
        XCTAssertEqual(h.send(.button(.veryLong)).compactMap(\.refusal), [.armedRelease])
        h.send(.armSwitch(on: false))
        XCTAssertEqual(h.send(.button(.veryLong)).compactMap(\.acceptedChirp), [.release])
    }

    func testAShortPressSnoozesASoundingFault() {
        var h = Harness()
        h.anchored(armed: true)
        let raised = h.send(.faultRaised(Fault(.journal, "Journal: can't write")))
        XCTAssertTrue(raised.contains(.faultSound(on: true)))
        let a = h.send(.button(.short))
        // As `anchor-alert snooze`: for a snooze's length, with its receipt (issue 26).
        XCTAssertEqual(a.first, .faultSound(on: false))
        XCTAssertEqual(a.compactMap(\.acceptedChirp), [.snooze])
        XCTAssertNotNil(h.watch.faults[.journal], "silenced, not resolved")
        XCTAssertFalse(h.watch.faultSounding)
        // A new fault pushes again.
        XCTAssertTrue(h.send(.faultRaised(Fault(.siren, "Siren: no sound device"))).contains(.faultSound(on: true)))
    }

    func testAFaultThatDoesNotPushIsShownButSilent() {
        var h = Harness()
        let a = h.send(.faultRaised(Fault(.config, "Configuration: line 3: unknown key", pushes: false)))
        XCTAssertFalse(a.contains(.faultSound(on: true)))
        XCTAssertEqual(h.watch.status(at: h.now).faults.map(\.kind), [.config])
    }

    func testSwitchingOffWhenNotArmedDoesNothing() {
        var h = Harness()
        XCTAssertEqual(h.send(.armSwitch(on: false)), [])
    }

    func testRestoreRingsALatchedAlarmAtOnceBeforeAnyFix() {
        var w = Watch()
        let a = w.restore(anchor: Harness.origin, radius: 40, armed: true, ringingEpisode: 3, lastEpisode: 3, at: .zero)
        XCTAssertEqual(w.alarm, .ringing(episode: 3))
        XCTAssertTrue(a.contains(.alarmSound(on: true)))
        XCTAssertEqual(w.radius, 40)
        // The next ring after a snooze is a new episode.
        _ = w.handle(.decision(.snooze(episode: 3)), at: .zero)
        _ = w.handle(.tick, at: Instant(seconds: 301))
        XCTAssertEqual(w.alarm, .ringing(episode: 4))
    }

    func testRestoreArmedWithoutRinging() {
        var w = Watch()
        let a = w.restore(anchor: Harness.origin, radius: 30, armed: true, ringingEpisode: nil, lastEpisode: 2, at: .zero)
        XCTAssertEqual(w.alarm, .armed)
        XCTAssertFalse(a.contains(.alarmSound(on: true)))
        XCTAssertEqual(w.verdict, .cantJudge(.noReading))
    }
}
