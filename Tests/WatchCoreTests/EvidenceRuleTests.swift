import WatchCore
import XCTest

/// One test per evidence rule of the design document (appliance.md, "Evidence rules").
final class EvidenceRuleTests: XCTestCase {
    // MARK: Unknown is its own state

    func testUnknownIsItsOwnState_noReadingYet() {
        var h = Harness()
        h.send(.decision(.mark(.at(Harness.origin))))
        XCTAssertEqual(h.watch.verdict, .cantJudge(.noReading))
    }

    func testUnknownIsItsOwnState_noFix() {
        var h = Harness()
        h.anchored(armed: false)
        for _ in 0..<12 {
            h.send(.reading(.noFix(at: h.now)))
            h.wait(1)
        }
        XCTAssertEqual(h.watch.verdict, .cantJudge(.noFix))
    }

    func testUnknownIsItsOwnState_staleFix() {
        var h = Harness()
        h.anchored(armed: false)
        XCTAssertEqual(h.verdictKind, .holding)
        h.wait(9)
        XCTAssertEqual(h.verdictKind, .holding, "a fix within the staleness limit still counts")
        h.wait(2)
        XCTAssertEqual(h.watch.verdict, .cantJudge(.stale), "the watch's own deadline notices staleness, no new fix needed")
    }

    func testUnknownIsItsOwnState_noTwoDOrThreeDMode() {
        var h = Harness()
        h.anchored(armed: false)
        for _ in 0..<12 {
            h.send(.reading(h.reading(east: 0, north: 0, mode: .noFix)))
            h.wait(1)
        }
        XCTAssertEqual(h.watch.verdict, .cantJudge(.noFix), "a report without a 2D/3D mode is no evidence, even with numbers in it")
    }

    func testUnknownIsItsOwnState_accuracyTooPoorForTheRadius() {
        var h = Harness()
        h.anchored(armed: false)
        // Limit is 2 x 30 m = 60 m.
        h.fixes(12, accuracy: 80) { _ in (0, 0) }
        XCTAssertEqual(h.watch.verdict, .cantJudge(.poorAccuracy))
        h.fixes(3, accuracy: 10) { _ in (0, 0) }
        XCTAssertEqual(h.verdictKind, .holding)
    }

    func testUnknownIsNeverHolding() {
        var h = Harness()
        h.anchored(armed: true)
        h.wait(30)
        XCTAssertEqual(h.verdictKind, .cantJudge)
        XCTAssertEqual(h.watch.status(at: h.now).wontRing, "Won't ring: GPS can't judge a drag")
    }

    func testAReceiverGoneMadIsNotEvidence() {
        var h = Harness()
        h.anchored(armed: true)
        // Jumps of 5 km between one-second fixes: no boat at anchor moves so.
        h.fixes(40) { i in (i % 2 == 0 ? 5000 : -5000, 0) }
        XCTAssertEqual(h.watch.verdict, .cantJudge(.implausible))
        XCTAssertEqual(h.watch.alarm, .armed, "a receiver gone mad never sounds the drag siren")
    }

    // MARK: A drag is a verdict, not a fix

    func testOneStrayFixMovesNothing() {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(60) { i in i == 20 ? (80, 0) : (2, 1) }
        XCTAssertFalse(h.actions.contains { if case .verdictChanged(_, let to) = $0 { to.kind != .holding } else { false } })
        XCTAssertEqual(h.watch.alarm, .armed)
    }

    func testAMinorityOutsideMovesNothing() {
        var h = Harness()
        h.anchored(armed: true)
        // Every other fix outside: the fixes inside take back more than those outside add.
        h.fixes(120) { i in i % 2 == 0 ? (40, 0) : (10, 0) }
        XCTAssertEqual(h.verdictKind, .holding)
        XCTAssertEqual(h.watch.alarm, .armed)
    }

    func testCheckingProgressFillsTowardTheSiren() {
        var h = Harness()
        h.anchored(armed: true)
        var progress: [Double] = []
        for _ in 0..<30 {
            h.send(.reading(h.reading(east: 45, north: 0)))
            if case .checking(let p) = h.watch.verdict { progress.append(p) }
            h.wait(1)
        }
        XCTAssertGreaterThan(progress.count, 3)
        XCTAssertEqual(progress, progress.sorted(), "progress only fills while the majority stays outside")
        XCTAssertLessThan(progress.first ?? 1, 0.5, "checking starts with little progress and fills")
        XCTAssertGreaterThan(progress.last ?? 0, 0.8)
        XCTAssertEqual(h.watch.status(at: h.now).wontRing, "Ringing: snooze it or slide the switch off")
    }

    func testCheckingSaysItRingsUnlessTheBoatComesBack() {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(6) { _ in (45, 0) }
        XCTAssertEqual(h.verdictKind, .checking)
        XCTAssertEqual(h.watch.status(at: h.now).wontRing, "Rings unless the boat comes back")
    }

    func testASustainedMajorityIsADrag() {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(40) { i in (30 + Double(i), 0) }
        XCTAssertEqual(h.verdictKind, .dragging)
        XCTAssertEqual(h.watch.alarm, .ringing(episode: 1))
        XCTAssertTrue(h.actions.contains(.alarmSound(on: true)))
    }

    func testCheckingThatComesBackIsHoldingAgain() {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(6) { _ in (45, 0) }
        XCTAssertEqual(h.verdictKind, .checking)
        h.fixes(30) { _ in (5, 0) }
        XCTAssertEqual(h.verdictKind, .holding)
        XCTAssertEqual(h.watch.alarm, .armed, "checking that ends before confirmation never rings")
    }

    // MARK: An alarm latches

    func testTheAlarmLatchesUntilSnoozeOrSwitchOff() {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(40) { _ in (60, 0) }
        XCTAssertEqual(h.watch.alarm, .ringing(episode: 1))
        // The boat drifts back inside: still ringing, the skipper must know it dragged.
        h.fixes(60) { _ in (1, 0) }
        XCTAssertEqual(h.verdictKind, .holding)
        XCTAssertEqual(h.watch.alarm, .ringing(episode: 1))
        let off = h.send(.armSwitch(on: false))
        XCTAssertEqual(h.watch.alarm, .off)
        XCTAssertTrue(off.contains(.alarmSound(on: false)))
        XCTAssertEqual(off.compactMap(\.acceptedChirp), [.disarm])
    }

    func testSnoozeEndsAndReRingsWhileNotHolding() {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(40) { _ in (60, 0) }
        let snooze = h.send(.decision(.snooze(episode: 1)))
        XCTAssertTrue(snooze.contains(.alarmSound(on: false)))
        guard case .snoozed = h.watch.alarm else { return XCTFail("not snoozed: \(h.watch.alarm)") }
        h.fixes(299) { _ in (60, 0) }
        guard case .snoozed = h.watch.alarm else { return XCTFail("snooze ended early") }
        h.fixes(3) { _ in (60, 0) }
        XCTAssertEqual(h.watch.alarm, .ringing(episode: 2), "a new episode, so a stale snooze can't answer it")
    }

    func testSnoozeEndsQuietlyWhenHolding() {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(40) { _ in (60, 0) }
        h.send(.decision(.snooze(episode: 1)))
        h.fixes(310) { _ in (2, 0) }
        XCTAssertEqual(h.watch.alarm, .armed)
    }

    func testSnoozeEndsAndReRingsEvenWithoutFixes() {
        var h = Harness()
        h.anchored(armed: true)
        h.fixes(40) { _ in (60, 0) }
        h.send(.decision(.snooze(episode: 1)))
        h.wait(301)
        XCTAssertEqual(h.watch.alarm, .ringing(episode: 2), "can't judge is not holding: the latched alarm rings again")
    }

    // MARK: GPS lost while armed

    func testGPSLostWhileArmedBecomesAFaultAfterGraceNeverTheDragSiren() {
        var h = Harness()
        h.anchored(armed: true)
        h.wait(50)
        XCTAssertNil(h.watch.faults[.gpsLost], "still within the grace period")
        h.wait(30)
        XCTAssertNotNil(h.watch.faults[.gpsLost])
        XCTAssertTrue(h.actions.contains(.faultSound(on: true)))
        XCTAssertFalse(h.actions.contains(.alarmSound(on: true)), "GPS lost is a fault, never the drag siren")
        XCTAssertEqual(h.watch.alarm, .armed)
        h.fixes(3) { _ in (0, 0) }
        XCTAssertNotNil(h.watch.faults[.gpsLost], "a few fixes are not yet a GPS that judges")
        h.fixes(10) { _ in (0, 0) }
        XCTAssertNil(h.watch.faults[.gpsLost], "ten seconds of fixes again clear it")
        XCTAssertTrue(h.actions.contains(.faultSound(on: false)))
    }

    func testTheGPSLostTextSaysHowLongSinceTheLastUsableReading() {
        var h = Harness()
        h.anchored(armed: true)
        let lastFix = h.watch.lastUsable!.received
        h.wait(80)
        let raisedWith = h.watch.faults[.gpsLost]?.message
        XCTAssertEqual(raisedWith, "GPS: no usable GPS reading for 1:00, can't judge a drag", "raised with the grace")
        h.wait((lastFix + .seconds(360) - h.now).seconds)
        let status = h.watch.status(at: h.now)
        XCTAssertEqual(h.now - lastFix, .seconds(360))
        XCTAssertEqual(status.gpsLostText, "GPS: no usable GPS reading for 6:00, can't judge a drag",
                       "six minutes after the last usable reading, the text says 6:00, not the grace")
        XCTAssertEqual(status.faults.first { $0.kind == .gpsLost }?.message, raisedWith,
                       "the fault itself keeps the words it was raised (and journaled) with")
        h.fixes(12) { _ in (0, 0) }
        XCTAssertNil(h.watch.status(at: h.now).gpsLostText, "no text once the fault clears")
    }

    func testGPSLostWithTheAlarmOffIsNoFault() {
        var h = Harness()
        h.anchored(armed: false)
        h.wait(200)
        XCTAssertEqual(h.verdictKind, .cantJudge)
        XCTAssertNil(h.watch.faults[.gpsLost])
    }

    // MARK: Say why it won't ring

    func testWontRingAlwaysCarriesItsReason() {
        var h = Harness()
        XCTAssertEqual(h.watch.status(at: h.now).wontRing, "Won't ring: no anchor marked")
        h.anchored(armed: false)
        XCTAssertEqual(h.watch.status(at: h.now).wontRing, "Won't ring: alarm is off")
        h.send(.armSwitch(on: true))
        XCTAssertEqual(h.watch.status(at: h.now).wontRing, "Rings if the boat drags")
        h.wait(15)
        XCTAssertEqual(h.watch.status(at: h.now).wontRing, "Won't ring: GPS can't judge a drag")
        h.fixes(40) { _ in (60, 0) }
        h.send(.decision(.snooze(episode: 1)))
        XCTAssertEqual(h.watch.status(at: h.now).wontRing, "Won't ring: snoozed for 5:00")
        // Every combination of states has a line, and none uses an em dash.
        for alarm in [AlarmState.off, .armed, .ringing(episode: 1), .snoozed(until: h.now, episode: 1)] {
            for verdict in [PositionVerdict.noAnchor, .holding, .checking(progress: 0.5), .dragging, .cantJudge(.stale)] {
                let line = Words.wontRing(verdict: verdict, alarm: alarm, now: h.now)
                XCTAssertFalse(line.isEmpty)
                XCTAssertFalse(line.contains("\u{2014}"))
            }
        }
    }
}

/// Found by the gpsd end-to-end test: when fixes stop mid-drag, the window empties before the
/// last fix goes stale, and too few fixes to judge must not read as Holding.
final class FixesThatStopTests: XCTestCase {
    /// A window no longer than the staleness limit empties first; configuration allows it.
    func testFixesThatStopMidDragNeverShowHolding() {
        var h = Harness { $0.window = .seconds(8); $0.staleAfter = .seconds(10) }
        h.anchored(armed: true)
        h.fixes(40) { _ in (60, 0) }
        XCTAssertEqual(h.verdictKind, .dragging)
        h.actions.removeAll()
        // The receiver goes silent: the verdict may only stay or become can't judge.
        h.wait(30)
        let seen = h.actions.compactMap { if case .verdictChanged(_, let to) = $0 { to.kind } else { nil } }
        XCTAssertFalse(seen.contains(.holding), "saw \(seen)")
        XCTAssertEqual(h.verdictKind, .cantJudge)
    }

    func testFixesThatStopWhileCheckingKeepCheckingUntilStale() {
        var h = Harness { $0.window = .seconds(8); $0.staleAfter = .seconds(10) }
        h.anchored(armed: true)
        h.fixes(6) { _ in (45, 0) }
        XCTAssertEqual(h.verdictKind, .checking)
        h.actions.removeAll()
        h.wait(30)
        let seen = h.actions.compactMap { if case .verdictChanged(_, let to) = $0 { to.kind } else { nil } }
        XCTAssertEqual(seen, [.cantJudge])
        XCTAssertEqual(h.watch.alarm, .armed, "too little evidence never completes a drag")
    }
}
