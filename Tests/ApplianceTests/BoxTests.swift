@testable import Appliance
import Drivers
import Journal
import JournalTestSupport
import Posix
import LightsAndSounds
import WatchCore
import XCTest

/// The order in which the box carries out the watch's actions: the product's rules.
final class BoxTests: XCTestCase {
    /// Everything that happens to the outside world, in order.
    final class Trace {
        var events: [String] = []
    }

    final class FakeBuzzer: BuzzerLine {
        let trace: Trace
        init(_ t: Trace) { trace = t }
        func set(on: Bool) { trace.events.append(on ? "buzzer on" : "buzzer off") }
    }

    /// The siren as the box drives it: by what it means, never by a pattern.
    final class FakeSiren: SirenOutput {
        let trace: Trace
        init(_ t: Trace) { trace = t }
        func setAlarm(_ on: Bool, now: Instant) { trace.events.append(on ? "siren alarm" : "siren alarm off") }
        func setFault(_ on: Bool, now: Instant) { trace.events.append(on ? "siren fault" : "siren fault off") }
        func chirp(_ chirp: Chirp, now: Instant) { trace.events.append("siren chirp") }
        func notSaved(now: Instant) { trace.events.append("siren not saved") }
        func stopAll() { trace.events.append("siren stop") }
        func pollRequests() -> [PollDescriptor] { [] }
        func service(ready: [PollDescriptor], now: Instant) -> [Event] { [] }
        func nextDeadline() -> Instant? { nil }
    }

    final class FakeLog: DecisionLog {
        let trace: Trace
        var syncWorks = true
        var records: [[Action]] = []
        private var done: [(LogTicket, saved: Bool)] = []
        init(_ t: Trace) { trace = t }
        /// Synchronous: the record is written (or fails) at once, its completion ready.
        func submit(_ actions: [Action], now: Instant, wall: Double) -> LogTicket? {
            records.append(actions)
            trace.events.append(syncWorks ? "journal synced" : "journal sync failed")
            let ticket = LogTicket(number: UInt64(records.count))
            done.append((ticket, syncWorks))
            return ticket
        }
        func nextDeadline() -> Instant? { nil }
        func flushIfDue(now: Instant) {}
        func takeCompletions() -> (tickets: [(LogTicket, saved: Bool)], events: [Event]) {
            defer { done.removeAll() }
            return (done, [])
        }
        var completionFD: Int32? { nil }
    }

    struct Rig {
        let trace = Trace()
        let box: Box
        let log: FakeLog
        var now = Instant(seconds: 100)

        init() {
            log = FakeLog(trace)
            var s = WatchSettings()
            s.window = .seconds(20)
            s.minFixes = 3
            s.confirmation = .seconds(20)
            s.fastest = .seconds(4)
            s.deadband = 1
            s.noiseFloor = 5
            s.noisePrior = 5
            s.radius = 30
            box = Box(watch: Watch(settings: s), sources: [],
                      buzzerAndSiren: BuzzerAndSiren(buzzer: FakeBuzzer(trace), siren: FakeSiren(trace), book: DesignedSounds()),
                      log: log, wall: { 1_700_000_000 })
        }

        mutating func fix(east: Double) {
            let p = east == 0 ? Coordinate(latitude: 54, longitude: 13)
                : Geodesy.destination(from: Coordinate(latitude: 54, longitude: 13), bearing: 90, distance: Meters(east))
            box.handle(.reading(GPSReading(mode: .threeD, position: p, accuracy: 5, received: now)), now: now)
            now = now + .seconds(1)
            box.serve([], now: now)
        }
    }

    /// The box's start restores the farthest distance the journal kept (`StartUp.restore`).
    func testTheStartRestoresTheFarthestFromTheJournal() throws {
        let fs = SimulatedFileSystem()
        let mark = Coordinate(latitude: 54, longitude: 13)
        func at(_ t: Double) -> Stamp { Stamp(monotonic: Instant(seconds: t), wall: WallTime(seconds: 1_700_000_000 + t)) }
        let (journal, _) = Journal.open(directory: "/journal", fileSystem: fs, at: at(0))
        _ = journal.commit([.mark(anchor: mark, how: .here)], at: at(1))
        let out = Geodesy.destination(from: mark, bearing: 90, distance: 23.5)
        _ = journal.record([.track(GPSReading(mode: .threeD, position: out, accuracy: 3, received: Instant(seconds: 2)), distance: 23.5)],
                           pace: .calm, at: at(2))
        _ = journal.flush(at: at(3))
        journal.close()
        let (_, recovery) = Journal.open(directory: "/journal", fileSystem: fs, at: at(10))
        let rig = Rig()
        XCTAssertNil(rig.box.watch.farthest)
        StartUp.restore(rig.box, from: recovery, now: rig.now)
        XCTAssertEqual(rig.box.watch.anchor, mark)
        XCTAssertEqual(try XCTUnwrap(rig.box.watch.farthest).value, 23.5, accuracy: 0.001)
    }

    func testADecisionIsConfirmedOnlyAfterItsRecordIsDurable() {
        var rig = Rig()
        for _ in 0..<5 { rig.fix(east: 0) }
        rig.trace.events.removeAll()
        var outcome: DecisionOutcome?
        rig.box.handle(.decision(.mark(.here)), now: rig.now) { outcome = $0 }
        let synced = rig.trace.events.firstIndex(of: "journal synced")
        let chirp = rig.trace.events.firstIndex(of: "siren chirp")
        XCTAssertNotNil(synced)
        XCTAssertNotNil(chirp)
        XCTAssertLessThan(synced!, chirp!, "the chirp confirms a durable decision: \(rig.trace.events)")
        guard case .accepted(let receipt, let saved) = outcome else { return XCTFail("no receipt") }
        XCTAssertTrue(saved)
        XCTAssertNotNil(receipt.anchor)
    }

    func testTheAlarmSoundsBeforeAnyJournalWrite() {
        var rig = Rig()
        for _ in 0..<5 { rig.fix(east: 0) }
        rig.box.handle(.decision(.mark(.here)), now: rig.now)
        rig.box.handle(.armSwitch(on: true), now: rig.now)
        rig.trace.events.removeAll()
        for _ in 0..<30 where rig.box.watch.alarm.kind != .ringing { rig.fix(east: 60) }
        XCTAssertEqual(rig.box.watch.alarm.kind, .ringing)
        let loop = rig.trace.events.firstIndex(of: "siren alarm")
        let buzz = rig.trace.events.firstIndex(of: "buzzer on")
        let lastSyncBefore = rig.trace.events.lastIndex(of: "journal synced")
        XCTAssertNotNil(loop)
        XCTAssertNotNil(buzz)
        XCTAssertNotNil(lastSyncBefore)
        XCTAssertLessThan(loop!, lastSyncBefore!, "the siren starts before the alarm's record is written: \(rig.trace.events)")
        XCTAssertLessThan(buzz!, lastSyncBefore!)
    }

    func testAFailedSyncIsNeverReportedAsSavedAndRaisesTheJournalFault() {
        var rig = Rig()
        for _ in 0..<5 { rig.fix(east: 0) }
        rig.log.syncWorks = false
        var outcome: DecisionOutcome?
        rig.box.handle(.decision(.mark(.here)), now: rig.now) { outcome = $0 }
        guard case .accepted(_, let saved) = outcome else { return XCTFail("no receipt") }
        XCTAssertFalse(saved)
        XCTAssertNotNil(rig.box.watch.faults[.journal])
        XCTAssertTrue(rig.box.watch.faultSounding)
        XCTAssertNotNil(rig.box.watch.anchor, "the box keeps watching from memory")
    }

    func testARefusalIsAnsweredAtOnceWithoutTheJournal() {
        let rig = Rig()
        var outcome: DecisionOutcome?
        rig.box.handle(.decision(.release), now: rig.now) { _ in }
        rig.log.records.removeAll()
        rig.trace.events.removeAll()
        rig.box.handle(.armSwitch(on: true), now: rig.now) { outcome = $0 }
        XCTAssertEqual(outcome, .refused(.noAnchor))
        XCTAssertEqual(rig.trace.events.first, "siren chirp", "the refusal chirp")
    }

    func testSwitchOffStopsTheAlarmAndLeavesTheBuzzerLow() {
        var rig = Rig()
        for _ in 0..<5 { rig.fix(east: 0) }
        rig.box.handle(.decision(.mark(.here)), now: rig.now)
        rig.box.handle(.armSwitch(on: true), now: rig.now)
        for _ in 0..<30 where rig.box.watch.alarm.kind != .ringing { rig.fix(east: 60) }
        rig.trace.events.removeAll()
        rig.box.handle(.armSwitch(on: false), now: rig.now)
        XCTAssertTrue(rig.trace.events.contains("siren alarm off"), "\(rig.trace.events)")
        XCTAssertFalse(rig.box.buzzerAndSiren.isAlarmSounding)
        // After the disarm chirp ends, the line is low.
        rig.now = rig.now + .seconds(2)
        rig.box.serve([], now: rig.now)
        XCTAssertEqual(rig.trace.events.last { $0.hasPrefix("buzzer") }, "buzzer off")
    }

    func testTheAlarmBuzzIsPointTwoSecondsOnAndOff() {
        var player = PatternPlayer()
        let start = Instant(seconds: 10)
        player.start(DesignedSounds().alarm, at: start)
        XCTAssertTrue(player.isOn(at: start))
        XCTAssertFalse(player.isOn(at: start + .milliseconds(250)))
        XCTAssertTrue(player.isOn(at: start + .milliseconds(4050)))
        XCTAssertEqual(player.nextChange(after: start + .milliseconds(50)), start + .milliseconds(200))
    }
}

final class ChirpTimingTests: XCTestCase {
    final class TimedBuzzer: BuzzerLine {
        var now = Instant.zero
        var changes: [(Instant, Bool)] = []
        func set(on: Bool) { changes.append((now, on)) }
    }

    /// Runs the box as the loop would (wake at each deadline) and records the buzzer line.
    func testTheMarkChirpPlaysEveryStepOnTheBuzzerLine() {
        let buzzer = TimedBuzzer()
        var s = WatchSettings()
        s.radius = 30
        let gps = SimulatedGPS(.script(.hold), start: .zero)
        let box = Box(watch: Watch(settings: s), sources: [gps],
                      buzzerAndSiren: BuzzerAndSiren(buzzer: buzzer, siren: nil, book: DesignedSounds()), log: nil, wall: { 0 })
        var now = Instant.zero
        func runUntil(_ end: Instant) {
            while let next = box.nextDeadline(now: now), next <= end {
                now = max(next, now)
                buzzer.now = now
                box.serve([], now: now)
            }
            now = end
        }
        runUntil(Instant(seconds: 30.5))
        buzzer.changes.removeAll()
        buzzer.now = now
        let pressAt = now
        box.handle(.button(.long), now: now)
        XCTAssertNotNil(box.watch.anchor)
        runUntil(now + .seconds(1))
        // The pattern's level changes, as the buzzer line should show them.
        var expected: [(Instant, Bool)] = []
        var t = pressAt
        for step in DesignedSounds().chirp(.mark).steps {
            if expected.last?.1 != step.isOn { expected.append((t, step.isOn)) }
            t = t + step.duration
        }
        if expected.last?.1 == true { expected.append((t, false)) }
        XCTAssertGreaterThanOrEqual(expected.count, 3, "the mark chirp has more than one tone")
        XCTAssertEqual(buzzer.changes.map(\.1), expected.map(\.1), "every step of the mark chirp, then low")
        for (got, want) in zip(buzzer.changes, expected) {
            XCTAssertEqual(got.0.nanoseconds, want.0.nanoseconds, accuracy: 1_000_000)
        }
    }
}
