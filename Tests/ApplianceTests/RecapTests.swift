@testable import Appliance
import Journal
import WatchCore
import XCTest

final class RecapTests: XCTestCase {
    let base = WallTime(seconds: 1_800_000_000)

    func testAlarmsAndFaultsFirstThenWatchesThenNotes() throws {
        let night = try leavingBerthNight(wallBase: base)
        XCTAssertTrue(night.entries.contains { if case .alarmStart(2) = $0.event { true } else { false } },
                      "the scenario rings twice")
        let recap = Recap.build(night.entries, since: base, now: base + .seconds(3600))
        XCTAssertEqual(recap.sections.map(\.0), [.alarmsAndFaults, .watches, .notes])
        let alarms = recap.items(.alarmsAndFaults).map(\.says)
        XCTAssertEqual(alarms.count, 3, "\(alarms)")
        XCTAssertTrue(alarms[0].hasPrefix("GPS: gpsd is not answering (fixed itself at"), alarms[0])
        XCTAssertTrue(alarms[1].hasPrefix("Alarm: the boat reached "), alarms[1])
        XCTAssertTrue(alarms[1].hasSuffix(" (alert radius 30 m), snoozed at " + (alarms[1].split(separator: " ").last.map(String.init) ?? "")), alarms[1])
        XCTAssertTrue(alarms[2].contains(", alarm off at "), alarms[2])
        let watches = recap.items(.watches).map(\.says)
        XCTAssertEqual(watches.count, 1)
        XCTAssertTrue(watches[0].contains(": rang 2 times, farthest "), watches[0])
        let notes = recap.items(.notes).map(\.says)
        XCTAssertTrue(notes.contains("Alert radius: 30 m"), "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("Anchor marked at 54.34") }, "\(notes)")
        // Quiet stretches are left out: no line per fix, no line per holding verdict.
        let lines = recap.lines()
        XCTAssertLessThan(lines.count, 15, lines.joined(separator: "\n"))
        XCTAssertEqual(lines[2], "Alarms and faults")
    }

    /// "GPS reading is old" inside a sentence keeps its capitals: "GPS", never "gPS" (issue 26).
    func testCantJudgeKeepsTheGPSCapitals() {
        let entries = [
            HistoryEntry(at: base + .seconds(10), event: .verdict(from: .holding, to: .cantJudge, reason: .stale)),
            HistoryEntry(at: base + .seconds(70), event: .verdict(from: .cantJudge, to: .holding, reason: nil)),
            HistoryEntry(at: base + .seconds(80), event: .verdict(from: .holding, to: .cantJudge, reason: .tooFewReadings)),
            HistoryEntry(at: base + .seconds(85), event: .verdict(from: .cantJudge, to: .holding, reason: nil)),
        ]
        let notes = Recap.build(entries, since: base, now: base + .seconds(600)).items(.notes).map(\.says)
        XCTAssertTrue(notes.contains { $0.hasPrefix("Can't judge 2 times, longest ") && $0.hasSuffix(": GPS reading is old") }, "\(notes)")
        XCTAssertEqual("Too few GPS readings to judge".lowercasedFirst, "too few GPS readings to judge")
    }

    /// A fault whose words change while it lasts (the GPS fault counts its minutes) is one
    /// outage from its first raise: its start kept, its length the whole of it (issue 26).
    func testAnOutageWhoseWordsChangeKeepsItsStartAndLength() {
        let entries = [
            HistoryEntry(at: base + .seconds(10), event: .faultRaised(Fault(.gpsd, "GPS: gpsd is not answering"))),
            HistoryEntry(at: base + .seconds(125), event: .faultRaised(Fault(.gpsd, "GPS: gpsd is not answering for 2:00"))),
            HistoryEntry(at: base + .seconds(130), event: .faultCleared(.gpsd)),
        ]
        let recap = Recap.build(entries, since: base, now: base + .seconds(600))
        let items = recap.items(.alarmsAndFaults)
        XCTAssertEqual(items.count, 1, "one outage: \(items.map(\.says))")
        XCTAssertEqual(items.first?.at, base + .seconds(10), "from its start")
        XCTAssertEqual(items.first.map { $0.says.hasSuffix(", after 2 min)") }, true, "\(items.map(\.says))")
    }

    /// Arming is listed, and a watch still on at the recap says so (issue 26).
    func testArmingIsListedAndAWatchStillOnIsTold() {
        let mark = Coordinate(latitude: 54, longitude: 13)
        let entries = [
            HistoryEntry(at: base + .seconds(10), event: .mark(mark)),
            HistoryEntry(at: base + .seconds(20), event: .arm),
            HistoryEntry(at: base + .seconds(30), event: .fix(position: mark, accuracy: 3, distance: 4)),
        ]
        let recap = Recap.build(entries, since: base, now: base + .seconds(3600))
        let notes = recap.items(.notes)
        XCTAssertEqual(notes.first { $0.says == "Alarm on" }?.at, base + .seconds(20), "\(notes.map(\.says))")
        let watches = recap.items(.watches).map(\.says)
        XCTAssertEqual(watches.count, 1, "\(watches)")
        XCTAssertTrue(watches.first?.hasPrefix("Watch since ") == true && watches.first?.hasSuffix(", alarm still on: held, farthest 4 m from the anchor") == true,
                      "\(watches)")
    }

    func testAQuietNightThatEndedSaysSoAndNothingElse() throws {
        var armed = false
        var night = try RecordedNight.replay("nmea-20130630_L1-8252_moored-berth.log", wallBase: base) { night, t, now in
            if !armed, t >= 30 {
                night.handle(.decision(.mark(.here)), at: now)
                night.handle(.armSwitch(on: true), at: now)
                armed = true
            }
        }
        let end = night.entries.last!.at
        night.handle(.armSwitch(on: false), at: Instant.zero + (end - base) + .seconds(1))
        let recap = Recap.build(night.entries, since: base + .seconds(600), now: end + .seconds(60))
        XCTAssertEqual(recap.items(.alarmsAndFaults), [])
        XCTAssertEqual(recap.items(.watches).count, 1)
        XCTAssertTrue(recap.items(.watches)[0].says.hasPrefix("Watch of 1 h 14 min, "), recap.items(.watches)[0].says)
        XCTAssertTrue(recap.items(.watches)[0].says.contains(": held, farthest "), recap.items(.watches)[0].says)
        XCTAssertEqual(recap.items(.notes), [], "the mark was before --since")

        // Nothing at all since: one line.
        let nothing = Recap.build(night.entries, since: end + .seconds(10), now: end + .seconds(3600))
        XCTAssertTrue(nothing.isEmpty)
        XCTAssertEqual(nothing.lines().count, 1)
        XCTAssertTrue(nothing.lines()[0].hasPrefix("Nothing to report since "))
        XCTAssertEqual(nothing.json["nothing"]?.bool, true)
    }

    func testAFaultStillActiveAndAnAlarmStillRinging() {
        let t = base
        let entries: [HistoryEntry] = [
            .init(at: t, event: .radius(25)),
            .init(at: t + .seconds(1), event: .mark(Coordinate(latitude: 54, longitude: 13))),
            .init(at: t + .seconds(2), event: .arm),
            .init(at: t + .seconds(100), event: .faultRaised(Fault(.power, "Power: undervoltage, the box may stop"))),
            .init(at: t + .seconds(200), event: .alarmStart(episode: 1)),
            .init(at: t + .seconds(201), event: .fix(position: Coordinate(latitude: 54.001, longitude: 13), accuracy: 3, distance: 111)),
            .init(at: t + .seconds(250), event: .boot(after: .clean)),
        ]
        let r = Recap.build(entries, since: t, now: t + .seconds(300))
        XCTAssertEqual(r.items(.alarmsAndFaults).map(\.says), [
            "Power: undervoltage, the box may stop (until the box restarted at \((t + .seconds(250)).clock), after 2 min)",
            "Alarm: the boat reached 111 m from the anchor (alert radius 25 m), still ringing",
        ])
        XCTAssertEqual(r.items(.watches).map(\.says), ["Watch since \((t + .seconds(2)).clock), alarm still on: rang once, farthest 111 m from the anchor"],
                       "a watch still running says so")
        XCTAssertEqual(r.items(.notes).map(\.says), ["Alert radius: 25 m", "Anchor marked at 54.000000,13.000000", "Alarm on", "Box started"])
    }

    /// Issue 15: a fault of the boot before a restart stayed "(still so)" for ever.
    func testAFaultEndsAtARestartAndOnlyOneRaisedSinceIsStillSo() {
        let t = base
        let entries: [HistoryEntry] = [
            .init(at: t, event: .faultRaised(Fault(.gpsd, "GPS: gpsd is not answering"))),
            .init(at: t + .seconds(60), event: .boot(after: .clean)),
            .init(at: t + .seconds(70), event: .faultRaised(Fault(.power, "Power: undervoltage, the box may stop"))),
        ]
        let r = Recap.build(entries, since: t, now: t + .seconds(300))
        XCTAssertEqual(r.items(.alarmsAndFaults).map(\.says), [
            "GPS: gpsd is not answering (until the box restarted at \((t + .seconds(60)).clock), after 1 min)",
            "Power: undervoltage, the box may stop (still so)",
        ])
    }

    /// Issue 15: a crash restart showed only as "Box started". A start after a run that never
    /// shut down is a failure the skipper must see (the box watched nothing meanwhile), first,
    /// with when it went quiet; a clean stop and start are notes.
    func testARestartAfterAPowerCutIsToldFromACleanOne() {
        let t = base
        let entries: [HistoryEntry] = [
            .init(at: t, event: .boot(after: .firstStart)),
            .init(at: t + .seconds(100), event: .fix(position: Coordinate(latitude: 54, longitude: 13), accuracy: 3, distance: nil)),
            .init(at: t + .seconds(400), event: .boot(after: .unclean)),
            .init(at: t + .seconds(500), event: .shutdown),
            .init(at: t + .seconds(600), event: .boot(after: .clean)),
            .init(at: t + .seconds(700), event: .boot(after: .unknown)),
        ]
        let r = Recap.build(entries, since: t, now: t + .seconds(800))
        XCTAssertEqual(r.items(.alarmsAndFaults).map(\.says),
                       ["Box restarted after a power cut or crash (nothing recorded after \((t + .seconds(100)).clock))"])
        XCTAssertEqual(r.items(.alarmsAndFaults).map(\.at), [t + .seconds(400)])
        XCTAssertEqual(r.items(.notes).map(\.says), ["Box started", "Box stopped", "Box started", "Box started"])
        // The history lines carry it both ways, and an old line without "after" is not known.
        for e in entries { XCTAssertEqual(try HistoryLines.decode(HistoryLines.encode(e)), e) }
        XCTAssertEqual(try HistoryLines.decode(#"{"at":1,"event":"boot"}"#).event, .boot(after: .unknown))
        XCTAssertTrue(HistoryLines.encode(entries[2]).contains(#""after":"power_cut_or_crash""#))
    }

    func testRecapCommandAckMovesTheMark() throws {
        let dir = temporaryDirectory("recap")
        defer { removeTree(dir) }
        let now = WallTime.now()
        let night = try leavingBerthNight(wallBase: now - .seconds(7200))
        let file = dir + "/history.jsonl"
        try SnapshotFile.write(night.entries.map(HistoryLines.encode).joined(separator: "\n") + "\n", directory: dir)
        _ = runProgram(["/bin/mv", dir + "/status.json", file])
        let first = runProgram([applianceBinary, "recap", "--history", file, "--state-dir", dir, "--ack"])
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertTrue(first.out.contains("Alarms and faults"), first.out)
        XCTAssertTrue(first.out.hasSuffix("Marked as looked at\n"))
        XCTAssertNotNil(RecapMark.read(stateDirectory: dir))
        let second = runProgram([applianceBinary, "recap", "--history", file, "--state-dir", dir])
        XCTAssertEqual(second.code, 0)
        XCTAssertTrue(second.out.hasPrefix("Nothing to report since "), second.out)
        XCTAssertEqual(second.out.split(separator: "\n").count, 1)
        let since = runProgram([applianceBinary, "recap", "--history", file, "--state-dir", dir, "--since", "3h", "--json"])
        XCTAssertEqual(try JSON.parse(since.out)["nothing"]?.bool, false)
    }

    func testHistoryLinesRoundTrip() throws {
        let night = try leavingBerthNight(wallBase: base)
        for e in night.entries.prefix(400) {
            let back = try HistoryLines.decode(HistoryLines.encode(e))
            XCTAssertEqual(HistoryLines.encode(back), HistoryLines.encode(e))
        }
    }
}
