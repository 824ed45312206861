#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
@testable import Drivers
import Journal
import WatchCore
import XCTest

/// Both clocks are read once a turn, by the loop, and every part tells that reading: the box
/// `run` builds (`Wiring.parts`: the journal, the console's log, the Systems Check with this
/// machine's probe, the status snapshot, the control socket) on a `LoopClock` whose reading
/// is a fake time far from this machine's (a monotonic clock 58 days up, a wall clock in
/// 2001) and counts its reads. A part that read a clock of its own would either count (the
/// loop's) or tell this machine's time (the system's): the snapshot's writer and written-at,
/// the journal's stamps and the Systems Check's clock row must be the turn's fake reading.
final class OneClockReadingTests: XCTestCase {
    /// The fake clock behind the loop's `LoopClock`.
    final class FakeClock {
        static let start = Instant(seconds: 5_000_000)
        /// 2001-09-09 01:46:40 UTC at `start`, and moving with it.
        static func wall(at m: Instant) -> WallTime { WallTime(seconds: 1_000_000_000) + (m - start) }
        var monotonic = start
        var reads = 0
        func read() -> Stamp {
            reads += 1
            return Stamp(monotonic: monotonic, wall: Self.wall(at: monotonic))
        }
    }

    func testEveryPartTellsTheTurnsOneReading() throws {
        let dir = try Self.temporaryDirectory()
        defer { runProgram(["/bin/rm", "-rf", dir]) }
        let fake = FakeClock()
        let clock = LoopClock(read: fake.read)
        let start = clock.turn.monotonic
        var config = Configuration()
        config.watchSettings.radius = 40
        config.journal.directory = dir + "/journal"
        config.runtime.directory = dir
        config.runtime.statusInterval = 30
        // The product's own Systems Check probe (`Wiring.probe` left nil): its clock row judges
        // the wall time it is given.
        let wiring = Wiring(config: config, now: start, clock: clock)
        let journal = wiring.journal().log
        let gps = SimulatedGPS(.script(.hold), start: start)
        let devices = Wiring.Devices(drivers: [gps], fitted: [.journal])
        let parts = wiring.parts(devices, journal: journal)
        let box = wiring.box(devices, journal: journal, parts: parts)
        let snapshot = try XCTUnwrap(parts.lazy.compactMap { $0 as? SnapshotWriter }.first, "the product's snapshot")
        defer { snapshot.remove() }
        let runtime = BoxRuntime(box: box)
        box.restore(anchor: Coordinate(latitude: 54.3413, longitude: 13.5065), radius: 40, armed: true,
                    ringingEpisode: nil, lastEpisode: 0, now: start)

        // As `EventLoop` turns: the next deadline at the turn's `now`, the clocks read once
        // when it wakes, the turn served at that reading. Each turn, no read but the loop's.
        var now = start
        var turns = 0, writes: [Instant] = []
        while now < start + .seconds(150) {
            let deadline = runtime.nextDeadline(now: now) ?? now + .seconds(1)
            fake.monotonic = max(deadline, now + .milliseconds(1))
            let before = fake.reads
            now = clock.tick().monotonic
            if turns == 70 { box.handle(.decision(.setRadius(45)), now: now) }
            let written = snapshot.writes
            runtime.serve([], now: now)
            if snapshot.writes != written { writes.append(now) }
            turns += 1
            XCTAssertEqual(fake.reads, before + 1, "turn \(turns): a part read the loop's clock")
        }
        journal.close(now: now)
        XCTAssertGreaterThan(box.readings, 100, "the GPS's readings were handled")
        XCTAssertGreaterThanOrEqual(writes.count, 5, "the snapshot was written")

        // The snapshot: written at the turn's wall time, by a writer at the turn's monotonic one.
        guard case .current(let s) = SnapshotReading.judge(
            try StatusSnapshot(json: try JSON.parse(bytes: try XCTUnwrap(SnapshotFile.read(directory: dir)))),
            now: FakeClock.wall(at: now), monotonic: now.seconds, bootID: BoxIdentity.bootID(), isAlive: { _ in true })
        else { return XCTFail("the snapshot is not current at the fake time") }
        let last = try XCTUnwrap(writes.last)
        XCTAssertEqual(s.writer.monotonic, last.seconds, accuracy: 0.001, "the writer's monotonic time is the turn's")
        XCTAssertEqual(s.writtenAt.seconds, FakeClock.wall(at: last).seconds, accuracy: 0.001, "written at the turn's wall time")

        // The Systems Check judged the turn's wall time (2001: never set).
        let row = try XCTUnwrap(box.checks.first { $0.component == .clock })
        XCTAssertTrue(row.answer.contains("2001-09-"), "the clock row: \(row.answer)")

        // The journal: every record stamped with one reading of the fake clock.
        var records = 0
        JournalReader(directory: config.journal.directory).forEach { entry in
            records += 1
            // To the microsecond: the box hands the journal its wall time as seconds (a Double).
            XCTAssertEqual(entry.stamp.wall.seconds, FakeClock.wall(at: entry.stamp.monotonic).seconds, accuracy: 1e-6,
                           "record \(entry.record) stamped \(entry.stamp), not one turn's reading")
            return true
        }
        XCTAssertGreaterThan(records, 3, "decisions and the track were recorded")
    }

    /// gpsd's driver, as `Wiring` builds it for `run`, checks the receiver's clock against the
    /// loop's turn, not a wall clock of its own.
    func testGpsdsClockCheckReadsTheTurn() throws {
        let fake = FakeClock()
        let clock = LoopClock(read: fake.read)
        let wiring = Wiring(config: Configuration(), now: clock.turn.monotonic, clock: clock)
        guard case .success(let part) = wiring.gps(simulate: nil, speed: 1), let gpsd = part as? GPSDClient
        else { return XCTFail("run's GPS is gpsd's driver") }
        let wall = gpsd.wallClock
        fake.monotonic = FakeClock.start + .seconds(42)
        clock.tick()
        let reads = fake.reads
        XCTAssertEqual(wall(), FakeClock.wall(at: FakeClock.start + .seconds(42)).seconds, accuracy: 1e-6)
        XCTAssertEqual(fake.reads, reads, "read from the turn, not the clock")
    }

    /// The real `EventLoop` over `Wiring`'s parts: one read of the clocks before its first poll
    /// and one per wakeup, whatever the parts do.
    func testTheLoopReadsTheClocksOnceAWakeup() throws {
        let dir = try Self.temporaryDirectory()
        defer { runProgram(["/bin/rm", "-rf", dir]) }
        var reads = 0
        let clock = LoopClock(read: {
            reads += 1
            let m = MonotonicClock.now()
            return Stamp(monotonic: m, wall: WallTime(seconds: 1_000_000_000) + (m - .zero))
        })
        var config = Configuration()
        config.journal.directory = dir + "/journal"
        config.runtime.directory = dir
        let start = clock.turn.monotonic
        let wiring = Wiring(config: config, now: start, clock: clock)
        let journal = wiring.journal().log
        let loop = try EventLoop(clock: clock)
        let stopper = LoopNeverWaitsTests.Script([(start + .milliseconds(1500), { _ = pthread_kill(pthread_self(), SIGTERM) })])
        let devices = Wiring.Devices(drivers: [SimulatedGPS(.script(.hold), start: start, speed: 10)], fitted: [.journal])
        let box = wiring.box(devices, journal: journal, parts: wiring.parts(devices, journal: journal) + [stopper])
        defer { for case let s as SnapshotWriter in box.parts { s.remove() } }
        let before = reads
        loop.run(BoxRuntime(box: box))
        print("loop: \(loop.wakeups) wakeups, \(reads - before) clock reads, \(box.readings) readings")
        XCTAssertGreaterThan(box.readings, 5)
        XCTAssertEqual(reads - before, loop.wakeups + 1, "one reading before the first poll and one a wakeup")
    }

    private static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/aa-one-clock-XXXXXX".utf8CString)
        return try XCTUnwrap(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
    }
}
