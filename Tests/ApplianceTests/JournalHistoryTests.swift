#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Journal
import LightsAndSounds
import WatchCore
import XCTest

/// Recap, export and mark --ago over a real journal, written by the journal as the box writes it.
final class JournalHistoryTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory("jh") }
    override func tearDown() {
        // ANCHOR_ALERT_KEEP_JOURNAL keeps the journal for trying the commands by hand.
        if getenv("ANCHOR_ALERT_KEEP_JOURNAL") == nil { removeTree(dir) } else { print("journal kept in \(dir)") }
    }

    func testRecapAndExportReadTheJournalLikeTheirHistory() throws {
        let base = WallTime.now() - .seconds(3 * 3600)
        let night = try leavingBerthNight(wallBase: base, journal: dir + "/journal")
        let fromJournal = try JournalHistory(directory: dir + "/journal").entries()
        XCTAssertGreaterThan(fromJournal.count, 50)
        let a = Recap.build(night.entries, since: base, now: base + .seconds(3600))
        let b = Recap.build(fromJournal, since: base, now: base + .seconds(3600))
        XCTAssertEqual(b.items(.alarmsAndFaults).count, a.items(.alarmsAndFaults).count)
        XCTAssertEqual(b.items(.alarmsAndFaults).map { $0.says.prefix(30) }, a.items(.alarmsAndFaults).map { $0.says.prefix(30) })
        XCTAssertEqual(b.items(.watches).count, 1)

        let recap = runProgram([applianceBinary, "recap", "--journal", dir + "/journal", "--since", "4h", "--config", "/dev/null"])
        XCTAssertEqual(recap.code, 0, recap.err)
        XCTAssertTrue(recap.out.contains("\nAlarms and faults\n"), recap.out)
        XCTAssertTrue(recap.out.contains("\nWatches\n"), recap.out)

        let gpx = runProgram([applianceBinary, "export", "--journal", dir + "/journal", "-o", dir + "/night.gpx", "--config", "/dev/null"])
        XCTAssertEqual(gpx.code, 0, gpx.err)
        XCTAssertEqual(runProgram(["/usr/bin/xmllint", "--noout", "--schema", ExportTests.schema, dir + "/night.gpx"]).code, 0)

        let missing = runProgram([applianceBinary, "recap", "--journal", dir + "/none", "--config", "/dev/null"])
        XCTAssertEqual(missing.code, 1)
        XCTAssertTrue(missing.err.hasPrefix("Journal: none in "), missing.err)
    }

    /// Issue 15: a fault raised a minute ago was missing from the recap until a batch flush (300 s
    /// when calm). Through the box, the journal's own thread and the real recap: a fault raised is
    /// in the recap as soon as the writer answers; its clearing 2 s later waits out the 10 s a
    /// flapping fault is allowed, and is there when the loop's deadline comes; a clean stop is
    /// "Box stopped".
    func testAFaultIsInTheRecapAtOnceNotAtTheNextBatchFlush() throws {
        let journalDir = dir + "/journal"
        var now = Instant(seconds: 500)
        let opened = Journal.open(directory: journalDir, at: Stamp(monotonic: now, wall: WallTime.now()))
        let log = JournalLog(journal: opened.journal, threaded: true, wall: WallClock.seconds)
        let box = Box(watch: Watch(settings: WatchSettings()), sources: [],
                      buzzerAndSiren: BuzzerAndSiren(buzzer: nil, siren: nil, book: DesignedSounds()), log: log, wall: WallClock.seconds)
        func recap() -> [String] {
            let wall = WallTime.now()
            let r = (try? JournalHistory(directory: journalDir).entries()).map { Recap.build($0, since: wall - .seconds(3600), now: wall) }
            return (r?.items(.alarmsAndFaults) ?? []).map(\.says) + (r?.items(.notes) ?? []).map(\.says)
        }
        // Waits on the event (the line in the recap), polling the writer's pipe as the loop does;
        // the limit is only for a writer that never writes it. The box's clock stands still.
        func eventually(_ what: String, _ ok: ([String]) -> Bool) {
            let end = MonotonicClock.now() + .seconds(20)
            while !ok(recap()) {
                guard MonotonicClock.now() < end else { return XCTFail("\(what): \(recap())") }
                var p = pollfd(fd: log.completionFD!, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 100)
                box.takeCompletions(now: now)
            }
        }
        box.handle(.faultRaised(Fault(.gpsd, "GPS: gpsd is not answering")), now: now)
        eventually("the fault is in the recap with no flush age passed") { $0.contains("GPS: gpsd is not answering (still so)") }

        now = now + .seconds(2)
        box.handle(.faultCleared(.gpsd), now: now)
        eventually("the loop is told when the clearing is due") { _ in box.nextDeadline(now: now).map { $0 <= now + .seconds(8) } == true }
        now = now + .seconds(8)
        box.serve([], now: now)
        eventually("the clearing is in the recap when its 10 s came") { $0.contains { $0.hasPrefix("GPS: gpsd is not answering (fixed itself at ") } }
        log.close(now: now)
        // And the real command reads the same from the card.
        let r = runProgram([applianceBinary, "recap", "--journal", journalDir, "--since", "1h", "--config", "/dev/null"])
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertTrue(r.out.contains("GPS: gpsd is not answering (fixed itself at "), r.out)
        XCTAssertTrue(r.out.contains("Box started") && r.out.contains("Box stopped"), r.out)
    }

    func testMarkAgoSendsWhereTheBoatWasFromTheJournal() throws {
        // The journal's night ended 10 minutes ago; the boat left its berth about 6 minutes in.
        let night = try leavingBerthNight(wallBase: WallTime.now() - .seconds(900 + 600), journal: dir + "/journal")
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        let r = runProgram([applianceBinary, "mark", "--ago", "24m", "--journal", dir + "/journal", "--runtime-dir", dir,
                            "--config", "/dev/null"], whileWaiting: { box.turn(timeoutMs: 5) })
        XCTAssertEqual(r.code, 0, r.out + r.err)
        let lines = r.out.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("Where the boat was at "), r.out)
        XCTAssertEqual(lines[1], "Sent, waiting for the box")
        XCTAssertTrue(lines[2].hasPrefix("Anchor marked at 54.34"), r.out)
        // 24 minutes ago is 1.5 minutes into the recording: still at the berth, by the mark.
        let berth = night.entries.compactMap { e -> Coordinate? in if case .mark(let c) = e.event { c } else { nil } }.first!
        XCTAssertLessThan(Geodesy.distance(box.watch.anchor!, berth).value, 15)

        let tooLong = runProgram([applianceBinary, "mark", "--ago", "5h", "--journal", dir + "/journal", "--runtime-dir", dir,
                                  "--config", "/dev/null"], whileWaiting: { box.turn(timeoutMs: 5) })
        XCTAssertEqual(tooLong.code, 1)
        XCTAssertTrue(tooLong.err.hasPrefix("Can't mark: the journal has no GPS reading within 30 s of "), tooLong.err)
    }
}
