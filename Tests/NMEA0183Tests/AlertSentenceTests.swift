@testable import NMEA0183
@testable import WatchCore
import XCTest

/// Golden sentences: each expected line was written out field by field from the layouts in
/// Docs/network.md and its checksum computed by pynmea2's own `NMEASentence.checksum`, not
/// by this encoder.
final class AlertSentenceTests: XCTestCase {
    let t0 = Instant(seconds: 10_000)
    /// 2023-11-14 22:13:20.50 UTC.
    let wall0 = 1_700_000_000.5

    func status(_ alarm: AlarmState, faults: [Fault] = [], sounding: Bool = false) -> WatchStatus {
        WatchStatus(verdict: .dragging, alarm: alarm, anchor: Coordinate(latitude: 43.2, longitude: 5.3), radius: 40,
                    distance: 62, readingAge: .seconds(1), accuracy: 3, wontRing: "", faults: faults,
                    faultSounding: sounding)
    }

    func testChecksumAndFraming() {
        XCTAssertEqual(Sentence.encode("IIACK", ["001"]), "$IIACK,001*54\r\n")
        XCTAssertEqual(Sentence.time(wall: wall0), "221320.50")
        XCTAssertEqual(Sentence.time(wall: 86_400 * 3 + 5.25), "000005.25")
    }

    func testReservedCharactersAreEscapedAndTextIsCutWithoutSplittingAnEscape() {
        XCTAssertEqual(Sentence.text("a,b*c$d", limit: 40), "a;b^2Ac^24d", "a comma is a semicolon, the rest escaped")
        XCTAssertEqual(Sentence.text("ab*c", limit: 4), "ab", "the escape ^2A does not fit whole, so it is left out")
        XCTAssertEqual(Sentence.text("lost for 1:00, can't judge", limit: 18), "lost for 1:00", "cut at a word, no dangling ;")
        XCTAssertEqual(Sentence.text("é", limit: 4), "?")
    }

    func testARingingAlarmIsAnnouncedAsALFThenALRThenALC() {
        var stream = AlertStream(talker: "II", repeatEvery: .seconds(30))
        let out = stream.update(BoxAlerts.alerts(from: status(.ringing(episode: 3))), now: t0, wall: wall0)
        XCTAssertEqual(out, [
            "$IIALF,2,1,0,221320.50,B,A,V,,10001,3,1,0,Anchor dragging*26\r\n",
            "$IIALF,2,2,0,,,,,,10001,3,1,0,Dragging: 62 m from anchor (alert radius 40 m)*20\r\n",
            "$IIALR,221320.50,001,A,V,Dragging: 62 m from anchor (alert radius 40 m)*0B\r\n",
            "$IIALC,01,01,00,1,,10001,3,1*4D\r\n",
        ])
        XCTAssertEqual(stream.announcedEpisode, 3)
    }

    func testActiveAlertsAreRepeatedEveryIntervalWithTheSameRevisionAndTime() {
        var stream = AlertStream(talker: "II", repeatEvery: .seconds(30))
        let ringing = BoxAlerts.alerts(from: status(.ringing(episode: 3)))
        _ = stream.update(ringing, now: t0, wall: wall0)
        XCTAssertEqual(stream.update(ringing, now: t0 + .seconds(29), wall: wall0 + 29), [], "nothing before the interval")
        let again = stream.update(ringing, now: t0 + .seconds(30), wall: wall0 + 30)
        XCTAssertEqual(again.first, "$IIALF,2,1,1,221320.50,B,A,V,,10001,3,1,0,Anchor dragging*27\r\n",
                       "the next sequential message, the same revision and time of last change")
        XCTAssertEqual(again.dropLast().last, "$IIALC,01,01,01,1,,10001,3,1*4C\r\n")
        XCTAssertEqual(again.last, "$IIHBT,30.0,A,0*1E\r\n", "a heartbeat closes each repetition")
        XCTAssertEqual(again.count, 5)
        XCTAssertEqual(stream.nextRepeat, t0 + .seconds(60))
    }

    func testATextThatChangedGetsANewRevisionWithTheRepetitionNotEachFix() {
        var stream = AlertStream(talker: "II", repeatEvery: .seconds(30))
        _ = stream.update(BoxAlerts.alerts(from: status(.ringing(episode: 3))), now: t0, wall: wall0)
        var moved = status(.ringing(episode: 3))
        moved.distance = 90
        XCTAssertEqual(stream.update(BoxAlerts.alerts(from: moved), now: t0 + .seconds(5), wall: wall0 + 5), [])
        let again = stream.update(BoxAlerts.alerts(from: moved), now: t0 + .seconds(30), wall: wall0 + 30)
        XCTAssertEqual(again[0], "$IIALF,2,1,1,221350.50,B,A,V,,10001,3,2,0,Anchor dragging*23\r\n", "revision 2, time of the change")
        XCTAssertTrue(again[1].contains(",10001,3,2,0,Dragging: 90 m"), again[1])
    }

    func testASnoozeEndingInANewEpisodeSendsNoNormalALRBetween() {
        var stream = AlertStream(talker: "II", repeatEvery: .seconds(30))
        _ = stream.update(BoxAlerts.alerts(from: status(.snoozed(until: t0 + .seconds(10), episode: 3))), now: t0, wall: wall0)
        let next = stream.update(BoxAlerts.alerts(from: status(.ringing(episode: 4))), now: t0 + .seconds(10), wall: wall0 + 10)
        let alrs = next.filter { $0.hasPrefix("$IIALR") }
        XCTAssertEqual(alrs.count, 1, "\(alrs)")
        XCTAssertTrue(alrs[0].hasPrefix("$IIALR,221330.50,001,A,V,Dragging"), alrs[0])
    }

    func testTitlesFitSixteenCharacters() {
        for (_, _, title) in BoxAlerts.gpsKinds { XCTAssertLessThanOrEqual(title.count, 16, title) }
    }

    func testSnoozeThenOffAreChangesEachWithANewRevision() {
        var stream = AlertStream(talker: "II", repeatEvery: .seconds(30))
        _ = stream.update(BoxAlerts.alerts(from: status(.ringing(episode: 3))), now: t0, wall: wall0)
        let snoozed = stream.update(BoxAlerts.alerts(from: status(.snoozed(until: t0 + .seconds(600), episode: 3))),
                                    now: t0 + .seconds(10), wall: wall0 + 10)
        XCTAssertEqual(snoozed[0], "$IIALF,2,1,1,221330.50,B,A,S,,10001,3,2,0,Anchor dragging*20\r\n")
        XCTAssertEqual(snoozed[2], "$IIALR,221330.50,001,A,A,Snoozed: 62 m from anchor (alert radius 40 m)*6C\r\n")
        let off = stream.update([], now: t0 + .seconds(40), wall: wall0 + 40)
        XCTAssertEqual(off[0], "$IIALF,2,1,2,221400.50,B,A,N,,10001,3,3,0,Anchor dragging*3B\r\n", "sent once as normal")
        XCTAssertEqual(off[2], "$IIALR,221400.50,001,V,A,Snoozed: 62 m from anchor (alert radius 40 m)*7F\r\n")
        XCTAssertEqual(off.last, "$IIALC,01,01,02,0*7C\r\n", "then the list is empty")
        XCTAssertEqual(stream.update([], now: t0 + .seconds(70), wall: wall0 + 70), ["$IIALC,01,01,03,0*7D\r\n", "$IIHBT,30.0,A,0*1E\r\n"],
                       "an empty list and the heartbeat still go out every interval, and nothing else")
    }

    func testAChangingDistanceIsNotAChange() {
        var stream = AlertStream(talker: "II", repeatEvery: .seconds(30))
        _ = stream.update(BoxAlerts.alerts(from: status(.ringing(episode: 3))), now: t0, wall: wall0)
        var moved = status(.ringing(episode: 3))
        moved.distance = 70
        XCTAssertEqual(stream.update(BoxAlerts.alerts(from: moved), now: t0 + .seconds(1), wall: wall0 + 1), [],
                       "a new fix must not flood plotters with new revisions")
    }

    func testTheGPSFaultIsAWarningItsMessageEscapedAndCutToFit() {
        var stream = AlertStream(talker: "II", repeatEvery: .seconds(30))
        let fault = Fault(.gpsLost, "GPS: no usable GPS reading for 1:00, can't judge a drag")
        let out = stream.update(BoxAlerts.alerts(from: status(.armed, faults: [fault], sounding: true)), now: t0, wall: wall0)
        XCTAssertEqual(out[0], "$IIALF,2,1,0,221320.50,B,W,V,,10002,1,1,0,GPS reading lost*0D\r\n")
        XCTAssertEqual(out[1], "$IIALF,2,2,0,,,,,,10002,1,1,0,GPS: no usable GPS reading for 1:00; can't*45\r\n",
                       "no comma in the text, cut at a word")
        for line in out { XCTAssertLessThanOrEqual(line.utf8.count, Sentence.maxLength, line) }
        // Silenced by the button: still active, now acknowledged.
        let quiet = stream.update(BoxAlerts.alerts(from: status(.armed, faults: [fault], sounding: false)),
                                  now: t0 + .seconds(5), wall: wall0 + 5)
        XCTAssertTrue(quiet[0].contains(",B,W,A,,10002,1,2,"), quiet[0])
    }

    func testTheGPSLostTextSaysTheTimeSinceTheLastReadingNotTheGrace() {
        var stream = AlertStream(talker: "II", repeatEvery: .seconds(30))
        let fault = Fault(.gpsLost, "GPS: no usable GPS reading for 1:00, can't judge a drag")
        var lost = status(.armed, faults: [fault], sounding: true)
        lost.gpsLost = GPSLost(reason: .noReading, lost: .seconds(62), judgeable: nil)  // "... for 1:02, ..."
        let first = stream.update(BoxAlerts.alerts(from: lost), now: t0, wall: wall0)
        XCTAssertTrue(first.contains { $0.contains("ALR") && $0.contains("GPS: no usable GPS reading for 1:02; can't") }, "\(first)")
        // Six minutes on, the repetition carries the time as it is now, as a new revision.
        lost.gpsLost = GPSLost(reason: .noReading, lost: .seconds(360), judgeable: nil)  // "... for 6:00, ..."
        let later = stream.update(BoxAlerts.alerts(from: lost), now: t0 + .seconds(298), wall: wall0 + 298)
        let alf = later.filter { $0.hasPrefix("$IIALF,2,2,") }
        XCTAssertEqual(alf.count, 1, "\(later)")
        XCTAssertTrue(alf.first?.contains(",10002,1,2,0,GPS: no usable GPS reading for 6:00; can't") ?? false, "\(alf)")
        XCTAssertTrue(later.contains { $0.contains("ALR") && $0.contains("for 6:00") }, "\(later)")
    }

    func testManyAlertsSplitTheListThreeEntriesASentence() {
        var stream = AlertStream(talker: "II", repeatEvery: .seconds(30))
        let faults = [Fault(.gpsLost, "GPS: lost"), Fault(.gpsd, "GPS: gpsd is not running"), Fault(.receiver, "GPS: no receiver")]
        let out = stream.update(BoxAlerts.alerts(from: status(.ringing(episode: 1), faults: faults, sounding: true)),
                                now: t0, wall: wall0)
        let list = out.filter { $0.hasPrefix("$IIALC") }
        XCTAssertEqual(list.count, 2)
        XCTAssertTrue(list[0].hasPrefix("$IIALC,02,01,00,3,,10001,1,1,,10002,1,1,,10002,2,1*"), list[0])
        XCTAssertTrue(list[1].hasPrefix("$IIALC,02,02,00,1,,10002,3,1*"), list[1])
    }

    func testRefusalIsAnARCEchoingTheCommand() {
        let stream = AlertStream(talker: "II")
        XCTAssertEqual(stream.refusal(identifier: 10001, instance: 3, command: "O", wall: wall0), "$IIARC,221320.50,,10001,3,O*1B\r\n")
    }

    func testCommandsInNeedAValidChecksum() throws {
        let acn = try Sentence.parse(Array("$IIACN,221330.00,,10001,3,A,C*62\r\n".utf8)).get()
        XCTAssertEqual(AlertCommand(acn), .acn(identifier: 10001, instance: 3, command: "A"))
        let ack = try Sentence.parse(Array("$IIACK,001*54".utf8)).get()
        XCTAssertEqual(AlertCommand(ack), .ack(alarmNumber: 1))
        XCTAssertEqual(Sentence.parse(Array("$IIACK,001*55".utf8)), .failure(.badChecksum))
        XCTAssertEqual(Sentence.parse(Array("$IIACK,001".utf8)), .failure(.noChecksum))
        XCTAssertEqual(Sentence.parse(Array("garbage".utf8)), .failure(.notASentence))
        XCTAssertEqual(Sentence.parse(Array(("$IIACK," + String(repeating: "1", count: 90) + "*00").utf8)), .failure(.tooLong))
        let bad = try Sentence.parse(Array(Sentence.encode("IIACN", ["", "", "x", "3", "A", "C"]).utf8)).get()
        XCTAssertNil(AlertCommand(bad), "an identifier that is not a number is not a command")
        let unknown = try Sentence.parse(Array(Sentence.encode("IIACN", ["", "", "10001", "3", "Z", "C"]).utf8)).get()
        XCTAssertNil(AlertCommand(unknown))
    }
}
