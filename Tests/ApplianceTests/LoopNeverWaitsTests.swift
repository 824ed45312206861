#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Drivers
import Journal
import Signals
import WatchCore
import XCTest

/// Nothing on the loop waits: the real `EventLoop` and `BoxRuntime`, the alarm ringing, a
/// journal whose every sync takes 3 s (on its writer thread), and the box's console on a pipe
/// nobody reads. The buzzer keeps its 0.2 s cadence, systemd's watchdog is pinged on time, and
/// the decision's receipt comes only when its record is durable.
final class LoopNeverWaitsTests: XCTestCase {
    final class Buzzer: BuzzerLine {
        var changes: [(Instant, Bool)] = []
        func set(on: Bool) { changes.append((MonotonicClock.now(), on)) }
    }

    /// The test's script, run by the loop at its deadlines like any source.
    final class Script: Pollable {
        var steps: [(Instant, () -> Void)]
        init(_ steps: [(Instant, () -> Void)]) { self.steps = steps }
        func pollRequests() -> [PollRequest] { [] }
        func nextDeadline() -> Instant? { steps.first?.0 }
        func service(ready: [PollRequest], now: Instant) -> [Event] {
            while let first = steps.first, first.0 <= now {
                steps.removeFirst()
                first.1()
            }
            return []
        }
    }

    func testTheBuzzerAndTheWatchdogKeepTimeThroughASlowSyncAndAStuckConsole() throws {
        let fs = FlakyFileSystem()
        let start = MonotonicClock.now()
        let opened = Journal.open(directory: "/journal", fileSystem: fs, at: Stamp(monotonic: start, wall: WallTime(seconds: 1_700_000_000)))
        let journal = JournalLog(journal: opened.journal, wall: WallClock.seconds)
        XCTAssertNotNil(journal.completionFD)
        let buzzer = Buzzer()
        var s = WatchSettings()
        s.radius = 30
        let box = Box(watch: Watch(settings: s), sources: [buzzerSource()],
                      annunciator: Annunciator(buzzer: buzzer, siren: nil, book: DesignedSounds()),
                      log: journal, wall: WallClock.seconds)
        journal.pace = { [unowned box] in TrackPace(of: box.watch) }

        // The console: a pipe whose reader never reads.
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let sink = ConsoleSink(fd: fds[1])
        Console.loop = (sink, sink)
        defer { Console.loop = nil }

        let loop = try EventLoop()
        let runtime = BoxRuntime(box: box)
        runtime.extraSources = [journal, sink]
        var pings: [Instant] = []
        runtime.watchdog = (.seconds(1), { pings.append(MonotonicClock.now()) })
        ConsoleLog.attach(to: box, settings: s)

        // Ringing at once, as after a restart with the alarm latched.
        box.restore(anchor: Coordinate(latitude: 54, longitude: 13), radius: 30, armed: true, ringingEpisode: 1,
                    lastEpisode: 1, now: start)
        XCTAssertTrue(box.annunciator.isAlarmSounding)
        fs.syncDelay = .seconds(3)

        var outcome: DecisionOutcome?
        var decidedAt: Instant?
        var answeredAt: Instant?
        var consoleTook: Duration = .zero
        let script = Script([
            (start + .milliseconds(300), {
                // Far more than the pipe and the buffer hold: must neither block nor grow.
                let t0 = MonotonicClock.now()
                for i in 0..<5_000 { Console.out("Line \(i) of a console nobody reads, long enough to fill a pipe quickly") }
                consoleTook = MonotonicClock.now() - t0
                decidedAt = MonotonicClock.now()
                box.handle(.decision(.setRadius(45)), now: decidedAt!) { o in
                    outcome = o
                    answeredAt = MonotonicClock.now()
                }
            }),
            (start + .milliseconds(4500), { _ = pthread_kill(pthread_self(), SIGTERM) }),
        ])
        runtime.extraSources.append(script)
        loop.run(runtime)
        journal.close(now: MonotonicClock.now())

        // The decision waited for its 3 s sync; the loop did not.
        guard case .accepted(_, true)? = outcome, let decidedAt, let answeredAt else {
            return XCTFail("no saved receipt: \(String(describing: outcome))")
        }
        XCTAssertGreaterThanOrEqual((answeredAt - decidedAt).seconds, 2.9, "the receipt came only once the slow sync was done")
        XCTAssertLessThan(consoleTook, .milliseconds(500), "5,000 lines to a stuck pipe took \(consoleTook)")
        XCTAssertGreaterThan(sink.droppedTotal, 0, "what did not fit was dropped and counted")
        XCTAssertLessThanOrEqual(sink.pending, sink.capacity)

        // The buzzer's 0.2 s steps, all through the sync window.
        let during = buzzer.changes.filter { $0.0 >= decidedAt && $0.0 <= answeredAt }
        XCTAssertGreaterThanOrEqual(during.count, 12, "about 15 level changes in 3 s of ringing, got \(during.count)")
        var worst = 0.0
        for (a, b) in zip(during, during.dropFirst()) {
            XCTAssertNotEqual(a.1, b.1)
            worst = max(worst, abs((b.0 - a.0).seconds - 0.2))
        }
        print("buzzer during a 3 s sync: \(during.count) changes, worst step off 0.2 s by \(Int(worst * 1000)) ms")
        XCTAssertLessThan(worst, 0.1, "the buzzer keeps its 0.2 s cadence while the journal syncs")

        // The watchdog: pinged at half its 1 s interval, sync or not.
        let pinged = pings.filter { $0 >= decidedAt && $0 <= answeredAt }
        XCTAssertGreaterThanOrEqual(pinged.count, 5, "watchdog pings during the sync: \(pinged.count)")
        for (a, b) in zip(pings, pings.dropFirst()) {
            XCTAssertLessThan((b - a).seconds, 0.75, "a watchdog gap of \((b - a).seconds) s")
        }
    }

    /// No GPS here: a source that never fires.
    private func buzzerSource() -> Pollable { Script([]) }
}
