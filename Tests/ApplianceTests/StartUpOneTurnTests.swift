@testable import Appliance
import Journal
import JournalTestSupport
import WatchCore
import XCTest

/// The start is one turn (`StartUp.begin`, what `run` does): the snapshot, the ring and the
/// network are first shown where the restore, the parts' first events and the switch's position
/// left the box. A box restarted with an anchor in its journal and its switch on ARM is never
/// shown with its alarm off, not even for the microseconds between the restore and the switch:
/// the kill test caught `status` reading that moment ("alarm off after restart, expected
/// armed=True").
final class StartUpOneTurnTests: XCTestCase {
    /// Every status the box shows, in order.
    final class Shown: Part, BoxObserver {
        var alarms: [AlarmState] = []
        var shown: BoxObserver? { self }
        func show(_ status: WatchStatus, now: Instant) { alarms.append(status.alarm) }
        func nextDeadline(now: Instant) -> Instant? { nil }
    }

    func testARestartWithTheSwitchOnArmIsFirstShownArmed() throws {
        let fs = SimulatedFileSystem()
        let marked = Instant(seconds: 1000)
        var opened = Journal.open(directory: "/journal", fileSystem: fs, at: SwingRestartTests.stamp(marked))
        var log = JournalLog(journal: opened.journal, threaded: false, wall: { 1_700_000_000 + marked.seconds })
        let first = Box(watch: Watch(settings: .scripted), sources: [],
                        buzzerAndSiren: BuzzerAndSiren(buzzer: nil, siren: nil, book: DesignedSounds()),
                        log: log, wall: { 1_700_000_000 })
        first.handle(.decision(.mark(.at(SwingShownTests.scriptedMark))), now: marked)
        XCTAssertEqual(first.watch.alarm, .off, "marked with the switch off: not armed")
        log.close(now: marked)

        let start = marked + .seconds(60)
        opened = Journal.open(directory: "/journal", fileSystem: fs, at: SwingRestartTests.stamp(start))
        XCTAssertNotNil(opened.recovery.memory.anchor, "the journal kept the mark")
        log = JournalLog(journal: opened.journal, threaded: false, wall: { 1_700_000_000 + start.seconds })
        let shown = Shown()
        let box = Box(watch: Watch(settings: .scripted), sources: [],
                      buzzerAndSiren: BuzzerAndSiren(buzzer: nil, siren: nil, book: DesignedSounds()),
                      log: log, wall: { 1_700_000_000 }, parts: [shown])
        StartUp.begin(box, faults: [], recovery: opened.recovery, simulatedSwitch: true, now: start)
        box.refresh(now: start)
        XCTAssertTrue(box.watch.alarm.isArmed, "the switch on ARM with an anchor arms at start")
        XCTAssertFalse(shown.alarms.isEmpty)
        XCTAssertEqual(shown.alarms.first, box.watch.alarm,
                       "the first status shown is where the start left the box, not the restore's alarm off: \(shown.alarms)")
        XCTAssertFalse(shown.alarms.contains(.off), "\(shown.alarms)")
        log.close(now: start)
    }
}
