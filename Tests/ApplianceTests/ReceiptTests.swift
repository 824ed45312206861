#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Drivers
import Journal
import LightsAndSounds
import WatchCore
import XCTest

/// A receipt is only ever a receipt: every decision, through the real journal on its own writer
/// thread, on a card whose syncs fail. The confirmation chirp (and the ring's confirmation,
/// `onReceipt`) comes only once the record is durable; otherwise the "not saved" sound, the
/// not-saved receipt, the console's line and the journal fault.
final class ReceiptTests: XCTestCase {
    /// The siren: records what the box asked for, as the pattern the siren would play.
    final class Sounds: SirenOutput {
        var played: [SoundPattern] = []
        func setAlarm(_ on: Bool, now: Instant) {}
        func setFault(_ on: Bool, now: Instant) {}
        func chirp(_ chirp: Chirp, now: Instant) { played.append(SoundDesign.chirp(chirp)) }
        func notSaved(now: Instant) { played.append(SoundDesign.notSaved) }
        func stopAll() {}
        func pollRequests() -> [PollDescriptor] { [] }
        func service(ready: [PollDescriptor], now: Instant) -> [Event] { [] }
        func nextDeadline() -> Instant? { nil }
    }

    final class Rig {
        let fs = FlakyFileSystem()
        let sounds = Sounds()
        let log: JournalLog
        let box: Box
        var now = Instant(seconds: 100)
        var receipts: [(Receipt, Bool)] = []
        static let origin = Coordinate(latitude: 54, longitude: 13)

        init() {
            let opened = Journal.open(directory: "/journal", fileSystem: fs,
                                      at: Stamp(monotonic: now, wall: WallTime(seconds: 1_700_000_000)))
            log = JournalLog(journal: opened.journal, threaded: true, wall: { 1_700_000_000 })
            var s = WatchSettings()
            s.radius = 30
            box = Box(watch: Watch(settings: s), sources: [],
                      buzzerAndSiren: BuzzerAndSiren(buzzer: nil, siren: sounds, book: DesignedSounds()),
                      log: log, wall: { 1_700_000_000 })
            log.pace = { [unowned box] in TrackPace(of: box.watch) }
            box.onReceipt = { [unowned self] r, saved, _ in receipts.append((r, saved)) }
            XCTAssertNotNil(log.completionFD, "the journal works on its own thread")
        }

        deinit { log.close(now: now) }

        func fixes(east: Double, count: Int) {
            for _ in 0..<count {
                let p = east == 0 ? Self.origin : Geodesy.destination(from: Self.origin, bearing: 90, distance: Meters(east))
                box.handle(.reading(GPSReading(mode: .threeD, position: p, accuracy: 3, received: now)), now: now)
                now = now + .seconds(1)
                box.serve([], now: now)
            }
        }

        /// Waits (polling the writer's completion pipe, as the loop does) until no decision
        /// waits on the journal.
        func settle(file: StaticString = #filePath, line: UInt = #line) {
            let start = MonotonicClock.now()
            while box.awaitingReceipts > 0 {
                guard MonotonicClock.now() - start < .seconds(10) else { return XCTFail("the journal never answered", file: file, line: line) }
                var p = pollfd(fd: log.completionFD!, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 100)
                box.takeCompletions(now: now)
            }
        }

        func marked() {
            fixes(east: 0, count: 8)
            box.handle(.decision(.mark(.here)), now: now)
            settle()
        }

        func armed() {
            marked()
            box.handle(.armSwitch(on: true), now: now)
            settle()
        }

        func ringing() {
            armed()
            for _ in 0..<300 where box.watch.alarm.kind != .ringing { fixes(east: 90, count: 1) }
            XCTAssertEqual(box.watch.alarm.kind, .ringing)
            settle()
        }
    }

    /// Takes `decision` on a prepared rig with the card working or failing, and checks every
    /// surface of the outcome.
    func check(_ name: String, chirp: Chirp, cardWorks: Bool, prepare: (Rig) -> Void, decide: (Rig, @escaping (DecisionOutcome) -> Void) -> Void,
               file: StaticString = #filePath, line: UInt = #line) {
        let rig = Rig()
        prepare(rig)
        XCTAssertNil(rig.box.watch.faults[.journal], "\(name): the card worked while preparing", file: file, line: line)
        rig.fs.failSyncs = !cardWorks
        rig.sounds.played.removeAll()
        rig.receipts.removeAll()
        var outcome: DecisionOutcome?
        decide(rig) { outcome = $0 }
        rig.settle(file: file, line: line)
        guard case .accepted(_, let saved)? = outcome else {
            return XCTFail("\(name): no receipt, got \(String(describing: outcome))", file: file, line: line)
        }
        XCTAssertEqual(saved, cardWorks, "\(name): the receipt says saved only when it is", file: file, line: line)
        XCTAssertEqual(rig.receipts.map(\.1), [cardWorks], "\(name): one confirmation for the ring, saved = \(cardWorks)", file: file, line: line)
        let confirmation = SoundDesign.chirp(chirp)
        if cardWorks {
            XCTAssertTrue(rig.sounds.played.contains(confirmation), "\(name): the \(chirp) chirp confirms", file: file, line: line)
            XCTAssertFalse(rig.sounds.played.contains(SoundDesign.notSaved), "\(name)", file: file, line: line)
            XCTAssertNil(rig.box.watch.faults[.journal], file: file, line: line)
        } else {
            XCTAssertFalse(rig.sounds.played.contains(confirmation), "\(name): no confirmation for a record not on the card: \(rig.sounds.played)", file: file, line: line)
            XCTAssertEqual(rig.sounds.played.last, SoundDesign.notSaved, "\(name): the not-saved sound is the last word", file: file, line: line)
            XCTAssertNotNil(rig.box.watch.faults[.journal], "\(name): the journal fault is raised", file: file, line: line)
            XCTAssertTrue(rig.box.watch.faultSounding, "\(name): and it pushes", file: file, line: line)
            XCTAssertGreaterThan(rig.fs.syncs, 0, file: file, line: line)
        }
    }

    func bothWays(_ name: String, chirp: Chirp, prepare: (Rig) -> Void, decide: (Rig, @escaping (DecisionOutcome) -> Void) -> Void,
                  file: StaticString = #filePath, line: UInt = #line) {
        check(name, chirp: chirp, cardWorks: true, prepare: prepare, decide: decide, file: file, line: line)
        check(name, chirp: chirp, cardWorks: false, prepare: prepare, decide: decide, file: file, line: line)
    }

    func testMarkIsConfirmedOnlyWhenSaved() {
        bothWays("mark", chirp: .mark, prepare: { $0.fixes(east: 0, count: 8) }) { rig, reply in
            rig.box.handle(.decision(.mark(.here)), now: rig.now, reply: reply)
        }
    }

    func testArmIsConfirmedOnlyWhenSaved() {
        bothWays("arm", chirp: .arm, prepare: { $0.marked() }) { rig, reply in
            rig.box.handle(.armSwitch(on: true), now: rig.now, reply: reply)
        }
    }

    func testDisarmIsConfirmedOnlyWhenSaved() {
        bothWays("disarm", chirp: .disarm, prepare: { $0.armed() }) { rig, reply in
            rig.box.handle(.armSwitch(on: false), now: rig.now, reply: reply)
        }
    }

    func testReleaseIsConfirmedOnlyWhenSaved() {
        bothWays("release", chirp: .release, prepare: { $0.marked() }) { rig, reply in
            rig.box.handle(.decision(.release), now: rig.now, reply: reply)
        }
    }

    func testSnoozeIsConfirmedOnlyWhenSaved() {
        bothWays("snooze", chirp: .snooze, prepare: { $0.ringing() }) { rig, reply in
            rig.box.handle(.decision(.snooze(episode: rig.box.watch.alarm.episode!)), now: rig.now, reply: reply)
        }
    }

    func testRadiusIsConfirmedOnlyWhenSaved() {
        bothWays("radius", chirp: .radiusStep, prepare: { $0.marked() }) { rig, reply in
            rig.box.handle(.decision(.setRadius(45)), now: rig.now, reply: reply)
        }
    }

    /// The receipt waits for the record: with a sync that takes half a second, the decision is
    /// applied at once (the watch has the anchor) but neither the chirp nor the reply comes
    /// before the journal's completion.
    func testTheReceiptWaitsForTheSyncWithoutHoldingTheLoop() {
        let rig = Rig()
        rig.fixes(east: 0, count: 8)
        rig.fs.syncDelay = .milliseconds(500)
        rig.sounds.played.removeAll()
        var outcome: DecisionOutcome?
        let before = MonotonicClock.now()
        rig.box.handle(.decision(.mark(.here)), now: rig.now) { outcome = $0 }
        let took = MonotonicClock.now() - before
        XCTAssertLessThan(took, .milliseconds(200), "handing the decision to the journal does not wait for the card")
        XCTAssertNotNil(rig.box.watch.anchor, "applied at once")
        XCTAssertNil(outcome, "no receipt before the sync")
        XCTAssertFalse(rig.sounds.played.contains(SoundDesign.chirp(.mark)))
        rig.settle()
        guard case .accepted(_, true)? = outcome else { return XCTFail("\(String(describing: outcome))") }
        XCTAssertTrue(rig.sounds.played.contains(SoundDesign.chirp(.mark)))
    }
}
