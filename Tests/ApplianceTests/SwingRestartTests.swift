@testable import Appliance
import Journal
import JournalTestSupport
import WatchCore
import XCTest

/// What the swing has learnt survives a restart: the real `Box` writes it to its journal (swing
/// records), and a box started again from that journal (`StartUp.restore`) shows the same swing
/// words at once, and offers the same move, instead of learning again from nothing.
final class SwingRestartTests: XCTestCase {
    static func stamp(_ t: Instant) -> Stamp { Stamp(monotonic: t, wall: WallTime(seconds: 1_700_000_000 + t.seconds)) }

    /// A box on the journal in `fs`, started as `run` starts one (`StartUp.restore`).
    static func box(_ fs: SimulatedFileSystem, at now: Instant) -> (Box, JournalLog) {
        let opened = Journal.open(directory: "/journal", fileSystem: fs, at: stamp(now))
        let log = JournalLog(journal: opened.journal, threaded: false, wall: { 1_700_000_000 + now.seconds })
        let box = Box(watch: Watch(settings: .scripted), sources: [],
                      buzzerAndSiren: BuzzerAndSiren(buzzer: nil, siren: nil, book: DesignedSounds()),
                      log: log, wall: { 1_700_000_000 })
        log.pace = { [unowned box] in TrackPace(of: box.watch) }
        StartUp.restore(box, from: opened.recovery, now: now)
        return (box, log)
    }

    func swingLines(_ box: Box, at now: Instant) throws -> [String] {
        try SwingShownTests.swingLines(box.watch, at: now)
    }

    /// The scripted swing (25 m, 140 degrees, marked 13 m off the anchor) for 40 minutes, then
    /// the box stops and starts again from its journal: the swing's lines (where the anchor may
    /// lie, the degrees of arc seen, the radius that holds the swing) and the offer are the
    /// same at once, and the same again a minute of readings later.
    func testARestartMidNightShowsTheSameSwing() throws {
        try restart(crash: false)
    }

    /// The same after a power cut: what the journal had synced (the swing records ride the
    /// batch, at most its flush age old) still shows the line, the offer and the arc seen.
    func testAPowerCutMidNightKeepsTheSwing() throws {
        try restart(crash: true)
    }

    static let offerLine = "The anchor seems to lie 13 m south-east of the mark"

    /// The number of the "Alert radius from the swing: 33 m" line, or the line itself.
    static func radius(_ line: String) -> String {
        line.hasPrefix("Alert radius from the swing: ") ? String(line.split(separator: " ")[5]) : line
    }

    func restart(crash: Bool) throws {
        let fs = SimulatedFileSystem()
        let readings = SwingShownTests.swingReadings(departAt: nil, until: 3000)
        let stopAt = 2400
        var (box, log) = Self.box(fs, at: Instant(seconds: 999))
        var before: [String] = []
        var offerBefore: SwingOffer?
        var statusBefore: WatchStatus?
        for r in readings[...stopAt] {
            box.handle(.reading(r), now: r.received)
            if r.received == SwingShownTests.markAt {
                box.handle(.decision(.mark(.at(SwingShownTests.scriptedMark))), now: r.received)
            }
            log.flushIfDue(now: r.received)
            before = try swingLines(box, at: r.received)
            offerBefore = box.watch.swingOffer
            statusBefore = box.watch.status(at: r.received)
        }
        XCTAssertTrue(before.contains { $0.hasPrefix(Self.offerLine) }, "\(before)")
        let offer = try XCTUnwrap(offerBefore, "the swing offers a move before the restart")
        let stop = readings[stopAt].received
        if crash {
            fs.simulateCrash()
        } else {
            box.stop(now: stop)
            log.close(now: stop)
        }
        let start = stop + .seconds(30)
        (box, log) = Self.box(fs, at: start)
        let again = try swingLines(box, at: start)
        let restoredOffer = try XCTUnwrap(box.watch.swingOffer, "the restarted box offers the move at once: \(again)")
        XCTAssertEqual(restoredOffer.distance.value, offer.distance.value, accuracy: crash ? 1 : 0.05)
        XCTAssertEqual(restoredOffer.bearing, offer.bearing, accuracy: crash ? 3 : 0.5)
        // The offer's line word for word; the radius line's number.
        XCTAssertEqual(again.first, before.first, "the swing's words at once after the restart")
        XCTAssertEqual(again.map(Self.radius), before.map(Self.radius))
        // The receiver's wander rides with the swing's record: the radius line's clause on the
        // GPS's wander, the ring distance and the radius advice are there at once, not 5
        // minutes of readings later. After a clean stop, the same words; after a power cut, the
        // wander kept at most a minute (and the batch's flush age) before the cut.
        let was = try XCTUnwrap(statusBefore), now = box.watch.status(at: start)
        let wanderBefore = try XCTUnwrap(was.wander, "the wander is measured before the restart")
        let wanderAgain = try XCTUnwrap(now.wander, "the restarted box says the GPS's wander at once")
        XCTAssertNotNil(now.ringDistance, "the ring distance at once after the restart")
        XCTAssertTrue(before.contains { $0.contains("the GPS's wander of about") }, "\(before)")
        if crash {
            XCTAssertEqual(wanderAgain.value, wanderBefore.value, accuracy: 0.5)
        } else {
            XCTAssertEqual(again, before, "every swing line, the wander's clause too")
            XCTAssertEqual(now.ringDistance, was.ringDistance)
            XCTAssertEqual(now.radiusAdvice, was.radiusAdvice)
            XCTAssertEqual(wanderAgain.value, wanderBefore.value, accuracy: 0.01)
        }
        // A minute of readings after the restart, the swing goes on from what it had learnt.
        var after: [String] = []
        for r in readings[(stopAt + 31)...(stopAt + 90)] {
            let t = r.received + .seconds(0)
            box.handle(.reading(GPSReading(mode: r.mode, position: r.position, accuracy: r.accuracy, received: t)), now: t)
            after = try swingLines(box, at: t)
        }
        XCTAssertTrue(after.contains { $0.hasPrefix(Self.offerLine) }, "\(after)")
        XCTAssertNotNil(box.watch.swingOffer, "the offer stands a minute after the restart")
        log.close(now: readings[stopAt + 90].received)
    }
}
