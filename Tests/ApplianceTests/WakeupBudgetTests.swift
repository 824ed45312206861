#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Drivers
import Journal
import WatchCore
import XCTest

/// Issue 14's wakeup budget: a box armed and holding wakes once per GPS reading, plus at most
/// one per 10 s for anything else. The box `run` builds, from `Wiring.parts` (the journal, the
/// console's log, the Systems Check monitor, the status snapshot, the control socket), with the
/// buzzer fitted and systemd's watchdog as the unit sets it (WatchdogSec=10s), driven on a
/// virtual clock as `EventLoop` drives it: each turn the loop sleeps until the earlier of the
/// next reading and the box's `nextDeadline`; a turn the deadline wins is a timer wakeup, one
/// the GPS wins is a reading's.
final class WakeupBudgetTests: XCTestCase {
    /// gpsd's socket, as the loop sees it: each turn it is ready, one reading.
    final class Readings: Part, Pollable {
        let at: Coordinate
        init(at: Coordinate) { self.at = at }
        var polled: Pollable? { self }
        func pollRequests() -> [PollDescriptor] { [] }
        func nextDeadline() -> Instant? { nil }
        func service(ready: [PollDescriptor], now: Instant) -> [Event] {
            guard !ready.isEmpty else { return [] }
            return [.reading(GPSReading(mode: .threeD, position: at, accuracy: 3, received: now))]
        }
    }

    final class Buzzer: BuzzerLine {
        var changes = 0
        func set(on: Bool) { changes += 1 }
    }

    struct Run {
        var readings = 0
        var timerWakeups = 0
        var pings: [Instant] = []
        var snapshotWrites = 0
        var monitorRuns = 0
        var buzzerChanges = 0
    }

    /// `seconds` of the box armed and holding, a reading every `period` (none at all when nil),
    /// counted after the first minute (the watch checking its first readings is not holding).
    private func run(period: Duration?, seconds: Int64, buzzerFitted: Bool = true) throws -> Run {
        let dir = try Self.temporaryDirectory()
        defer { runProgram(["/bin/rm", "-rf", dir]) }
        let anchor = Coordinate(latitude: 54.3413, longitude: 13.5065)
        let start = Instant(seconds: 10_000)
        var config = Configuration()
        config.watchSettings.radius = 40
        config.journal.directory = "/journal"
        config.runtime.directory = dir
        config.runtime.statusInterval = 30
        var wiring = Wiring(config: config, now: start)
        // This machine's power and clock are not the box's: read from an empty /sys and /run,
        // they are unknown (no fault), and the checks still run.
        let probe = CountingProbe(SystemsProbe(journalDirectory: dir, sysfs: dir, runRoot: dir))
        wiring.probe = probe
        let journal = wiring.journal(fileSystem: FlakyFileSystem()).log
        defer { journal.close(now: start) }
        let gps = Readings(at: anchor)
        let buzzer = Buzzer()
        let devices = Wiring.Devices(drivers: [gps], buzzer: buzzerFitted ? buzzer : nil,
                                     fitted: [.buzzer, .journal, .watchdog])
        let clock = VirtualClock(start)
        let watchdog = Watchdog(interval: .seconds(10), start: start, ping: { if clock.counting { clock.pings.append(clock.now) } })
        let parts = wiring.parts(devices, journal: journal) + [watchdog]
        let box = wiring.box(devices, journal: journal, parts: parts)
        let snapshot = try XCTUnwrap(parts.lazy.compactMap { $0 as? SnapshotWriter }.first, "the product's snapshot")
        defer { snapshot.remove() }
        let runtime = BoxRuntime(box: box)
        box.restore(anchor: anchor, radius: 40, armed: true, ringingEpisode: nil, lastEpisode: 0, now: start)

        var out = Run()
        var now = start
        var nextReading = period.map { start + $0 }
        let countFrom = start + .seconds(60), end = start + .seconds(seconds)
        var writesBefore = 0, runsBefore = 0, changesBefore = 0
        while now < end {
            clock.now = now
            if !clock.counting, now >= countFrom {
                clock.counting = true
                writesBefore = snapshot.writes
                runsBefore = probe.runs
                changesBefore = buzzer.changes
            }
            let deadline = runtime.nextDeadline(now: now)
            if let d = deadline, nextReading.map({ d < $0 }) ?? true {
                now = max(now, d)
                clock.now = now
                if clock.counting { out.timerWakeups += 1 }
                runtime.serve([], now: now)
            } else if let r = nextReading {
                now = r
                clock.now = now
                nextReading = r + period!
                if clock.counting { out.readings += 1 }
                runtime.serve([(gps, [PollDescriptor(fd: -1, wanted: Int16(POLLIN), happened: Int16(POLLIN))])], now: now)
            } else {
                XCTFail("nothing would ever wake the box")
                return out
            }
        }
        if period != nil { XCTAssertEqual(box.watch.alarm.kind, .armed, "armed and not ringing all through") }
        out.pings = clock.pings
        out.snapshotWrites = snapshot.writes - writesBefore
        out.monitorRuns = probe.runs - runsBefore
        out.buzzerChanges = buzzer.changes - changesBefore
        return out
    }

    /// The virtual loop's instant, for the watchdog's closure.
    final class VirtualClock {
        var now: Instant
        var counting = false
        var pings: [Instant] = []
        init(_ now: Instant) { self.now = now }
    }

    /// The machine as the Systems Check reads it, counting each run of the checks.
    final class CountingProbe: SystemsProbing {
        let inner: SystemsProbe
        var runs = 0
        init(_ inner: SystemsProbe) { self.inner = inner }
        func rows() -> [SystemsCheck.Row] {
            runs += 1
            return inner.rows()
        }
    }

    private func assertChoresDone(_ r: Run, minutes: Double, file: StaticString = #filePath, line: UInt = #line) {
        // The chores still happen, riding on the readings' turns.
        XCTAssertGreaterThanOrEqual(Double(r.snapshotWrites), minutes * 60 / 35, "steady snapshot writes", file: file, line: line)
        XCTAssertGreaterThanOrEqual(Double(r.monitorRuns), minutes * 60 / 70, "Systems Check runs", file: file, line: line)
        XCTAssertGreaterThanOrEqual(Double(r.pings.count), minutes * 60 / 5, "watchdog pings", file: file, line: line)
        for (a, b) in zip(r.pings, r.pings.dropFirst()) {
            XCTAssertLessThanOrEqual((b - a).seconds, 5.0, "a watchdog gap over half of WatchdogSec", file: file, line: line)
            XCTAssertGreaterThanOrEqual((b - a).seconds, 2.5, "pinged more often than needed", file: file, line: line)
        }
    }

    func testHoldingAt1HzWakesOncePerReadingAndRarelyOtherwise() throws {
        let r = try run(period: .seconds(1), seconds: 660)
        print("1 Hz, 10 minutes holding: \(r.readings) readings, \(r.timerWakeups) timer wakeups, \(r.pings.count) watchdog pings, \(r.snapshotWrites) snapshot writes, \(r.monitorRuns) Systems Check runs")
        XCTAssertEqual(r.readings, 600)
        XCTAssertLessThanOrEqual(r.timerWakeups, 60, "at most one per 10 s besides the readings")
        XCTAssertEqual(r.buzzerChanges, 0, "a holding box is silent")
        assertChoresDone(r, minutes: 10)
    }

    func testHoldingAt10HzWakesOncePerReadingAndRarelyOtherwise() throws {
        let r = try run(period: .milliseconds(100), seconds: 360)
        print("10 Hz, 5 minutes holding: \(r.readings) readings, \(r.timerWakeups) timer wakeups, \(r.pings.count) watchdog pings")
        XCTAssertEqual(r.readings, 3000)
        XCTAssertLessThanOrEqual(r.timerWakeups, 30, "at most one per 10 s besides the readings")
        assertChoresDone(r, minutes: 5)
    }

    /// The other side: with no readings the chores still get their turns, from the timer (no
    /// buzzer fitted, so the GPS fault's pattern, which would wake the loop itself, is silent).
    func testWithoutReadingsTheTimerStillPingsTheWatchdogAndWritesTheSnapshot() throws {
        let r = try run(period: nil, seconds: 360, buzzerFitted: false)
        print("no readings, 5 minutes: \(r.timerWakeups) timer wakeups, \(r.pings.count) watchdog pings, \(r.snapshotWrites) snapshot writes")
        XCTAssertGreaterThanOrEqual(r.timerWakeups, 60, "the watchdog alone needs a wakeup every 5 s")
        XCTAssertLessThanOrEqual(r.timerWakeups, 75, "and not many more")
        assertChoresDone(r, minutes: 5)
    }

    private static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/aa-wakeups-XXXXXX".utf8CString)
        return try XCTUnwrap(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
    }
}
