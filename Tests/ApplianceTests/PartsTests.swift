@testable import Appliance
import Drivers
import Journal
import LightsAndSounds
import WatchCore
import XCTest

/// The one list of parts: `Box` sorts it once by what each part does and stops it in reverse;
/// `Wiring.parts` builds it from the configuration, the journal first so it stops last.
final class PartsTests: XCTestCase {
    /// A part that does everything, and writes down what it was asked, in one shared log.
    final class Recorder: Part, BoxObserver, BoxListener, CheckedPart {
        let name: String
        let trace: BoxTests.Trace
        var rows: [SystemsCheck.Row]
        var lastChecks: [SystemsCheck.Row] = []
        init(_ name: String, _ trace: BoxTests.Trace, row: SystemsCheck.Row? = nil) {
            self.name = name
            self.trace = trace
            rows = row.map { [$0] } ?? []
        }
        var shown: BoxObserver? { self }
        var hearing: BoxListener? { self }
        var checked: CheckedPart? { rows.isEmpty ? nil : self }
        func show(_ status: WatchStatus, now: Instant) { trace.events.append("\(name) shown") }
        func show(_ status: WatchStatus, checks: [SystemsCheck.Row], now: Instant) {
            lastChecks = checks
            show(status, now: now)
        }
        func nextDeadline(now: Instant) -> Instant? { nil }
        func heard(_ actions: [Action], box: Box, now: Instant) {
            if actions.contains(where: { if case .accepted = $0 { true } else { false } }) { trace.events.append("\(name) heard accepted") }
        }
        func confirmed(_ receipt: Receipt, saved: Bool, now: Instant) { trace.events.append("\(name) confirmed saved \(saved)") }
        func stop(now: Instant) { trace.events.append("\(name) stopped") }
    }

    func box(_ parts: [Part], trace: BoxTests.Trace, log: DecisionLog? = nil) -> Box {
        Box(watch: Watch(settings: WatchSettings()),
            buzzerAndSiren: BuzzerAndSiren(buzzer: BoxTests.FakeBuzzer(trace), siren: nil, book: DesignedSounds()),
            log: log, wall: { 1_700_000_000 }, parts: parts)
    }

    func testPartsStopInReverseStartOrderAndThenTheSoundGoesOff() {
        let trace = BoxTests.Trace()
        let box = box([Recorder("journal", trace), Recorder("buzzer", trace), Recorder("network", trace)], trace: trace)
        box.restore(anchor: Coordinate(latitude: 54, longitude: 13), radius: 30, armed: true, ringingEpisode: 1, lastEpisode: 1,
                    now: Instant(seconds: 1))
        XCTAssertTrue(box.buzzerAndSiren.isAlarmSounding)
        trace.events.removeAll()
        box.stop(now: Instant(seconds: 2))
        XCTAssertEqual(trace.events, ["network stopped", "buzzer stopped", "journal stopped", "buzzer off"])
    }

    /// Each capability reaches the parts that have it: the shown see the status with every
    /// part's Systems Check rows, the listeners hear the decision and its receipt once the
    /// journal has it (not before).
    func testEachPartIsAskedOnlyForWhatItDoes() {
        let trace = BoxTests.Trace()
        let log = BoxTests.FakeLog(trace)
        let a = Recorder("a", trace, row: SystemsCheck.Row(.nmeaOut, .ok, "Yes")), b = Recorder("b", trace, row: SystemsCheck.Row(.mqtt, .ok, "Yes"))
        let box = box([a, b, CheckRow(SystemsCheck.Row(.signalK, .attention, "No: x"))], trace: trace, log: log)
        XCTAssertEqual(box.checks.map(\.component), [.nmeaOut, .mqtt, .signalK], "every part's rows, in start order")
        trace.events.removeAll()
        box.turn(now: Instant(seconds: 5)) {
            box.handle(.decision(.setRadius(45)), now: Instant(seconds: 5))
        }
        XCTAssertEqual(trace.events.filter { !$0.hasPrefix("buzzer") && !$0.hasPrefix("journal") },
                       ["a heard accepted", "b heard accepted", "a confirmed saved true", "b confirmed saved true", "a shown", "b shown"],
                       "the actions, the receipt once the journal's completion is taken, then the status once at the turn's end")
        XCTAssertEqual(a.lastChecks.map(\.component), [.nmeaOut, .mqtt, .signalK])
    }

    /// `run`'s list from a configuration: the journal first (so it stops last, after the
    /// outputs are safe), the console's log, the Systems Check, the snapshot and the control
    /// socket; a network output only when its section enables it, told the announced status.
    func testWiringBuildsTheListFromTheConfiguration() throws {
        let dir = temporaryDirectory("parts")
        defer { removeTree(dir) }
        var config = Configuration()
        config.journal.directory = "/journal"
        config.runtime.directory = dir
        var wiring = Wiring(config: config, now: Instant(seconds: 1))
        wiring.probe = SystemsProbe(journalDirectory: dir, sysfs: dir, runRoot: dir)
        let journal = wiring.journal(fileSystem: FlakyFileSystem()).log
        let quiet = wiring.parts(Wiring.Devices(), journal: journal)
        XCTAssertTrue(quiet.first === journal, "the journal starts first and stops last")
        XCTAssertEqual(quiet.map { "\(type(of: $0))" }, ["JournalLog", "ConsoleLog", "SystemsMonitor", "SnapshotWriter", "ControlServer"])
        XCTAssertTrue(quiet.allSatisfy { $0.told == nil }, "nothing tells the network when no section enables it")
        self.box(quiet, trace: BoxTests.Trace()).stop(now: Instant(seconds: 1))

        config.nmea.enabled = true
        config.nmea.listen = "127.0.0.1"
        config.nmea.port = 0
        wiring = Wiring(config: config, now: Instant(seconds: 1))
        wiring.probe = SystemsProbe(journalDirectory: dir, sysfs: dir, runRoot: dir)
        let second = wiring.journal(fileSystem: FlakyFileSystem()).log
        let told = wiring.parts(Wiring.Devices(), journal: second)
        let nmea = try XCTUnwrap(told.last as? NMEAOutput, "\(told.map { type(of: $0) })")
        let box = wiring.box(Wiring.Devices(), journal: second, parts: told)
        XCTAssertTrue(box.announcers.contains { $0 === nmea }, "the NMEA output is told, not shown, the status")
        XCTAssertTrue(box.sources.contains { $0 === nmea }, "and polled")
        XCTAssertEqual(box.checks.last?.component, .nmeaOut)
        box.stop(now: Instant(seconds: 2))
        XCTAssertNil(nmea.port, "stopped: its listener closed")
    }

    /// systemd's watchdog: pinged on any turn from a quarter of its interval after the last
    /// ping; the timer wakes for it at half.
    func testTheWatchdogIsPingedFromAQuarterAndWakesTheLoopAtHalf() {
        var pings: [Double] = []
        var now = Instant(seconds: 100)
        let w = Watchdog(interval: .seconds(8), start: now, ping: { pings.append(now.seconds) })
        XCTAssertEqual(w.dueFrom(), now, "due at once")
        _ = w.service(ready: [], now: now)
        XCTAssertEqual(w.dueFrom(), Instant(seconds: 102))
        XCTAssertEqual(w.nextDeadline(), Instant(seconds: 104))
        now = Instant(seconds: 101)
        _ = w.service(ready: [], now: now)
        now = Instant(seconds: 102)
        _ = w.service(ready: [], now: now)
        XCTAssertEqual(pings, [100, 102])
    }
}
