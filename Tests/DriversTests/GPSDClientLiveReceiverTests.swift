import Drivers
import GPSDTestSupport
import Glibc
import WatchCore
import XCTest

/// A real gpsd whose receiver is the test, writing sentences into a pseudo-terminal: silence and
/// repetition, which gpsfake can't stage.
final class GPSDClientLiveReceiverTests: XCTestCase {
    func startLive() throws -> GPSDLiveFixture {
        do {
            let live = try GPSDLiveFixture()
            let startup = try live.waitUntilListening()
            print("live gpsd listening after \(startup) s")
            return live
        } catch {
            XCTFail("gpsd could not start: \(error)")
            throw error
        }
    }

    func connected(_ live: GPSDLiveFixture, _ tweak: (inout GPSDSettings) -> Void) -> (GPSDClient, PollDriver) {
        var s = GPSDClientReplayTests.settings(port: live.port)
        tweak(&s)
        let client = GPSDClient(settings: s, now: PollDriver.now())
        let loop = PollDriver(client)
        XCTAssertTrue(loop.run(timeout: .seconds(5)) { _ in client.stats.gpsdRelease != nil }, "gpsd greets: \(live.stderr)")
        return (client, loop)
    }

    /// Sends one epoch and waits (bounded) for gpsd to report it.
    func feed(_ live: GPSDLiveFixture, _ loop: PollDriver, epoch lines: [String]) {
        let before = loop.events.count
        live.send(lines)
        loop.run(timeout: .milliseconds(700)) { $0.count > before }
    }

    func testReportsStoppingRaisesReceiverFaultAndNewReportsClearIt() throws {
        let live = try startLive()
        defer { live.stop() }
        let (client, loop) = connected(live) { $0.reportsStoppedAfter = .milliseconds(1500) }
        let (date, now) = GPSDClientScenarioTests.today()
        for i in 0..<5 { feed(live, loop, epoch: NMEA.fix(secondsOfDay: now - 20 + i, date: date, latitude: 1, longitude: 2)) }
        XCTAssertGreaterThanOrEqual(loop.readings.count, 3, "readings flow: \(live.stderr)")

        // Wait on the event, not a deadline: the receiver's last word is "reports stopped". gpsd
        // may first say no receiver is connected (also a receiver fault), and on a loaded machine
        // the feed itself may pause past the limit, raising and clearing the fault early; the
        // raise that counts is the last one, after the feed ended.
        func lastReceiverEvent() -> (index: Int, fault: Fault?)? {
            guard let i = loop.events.lastIndex(where: {
                switch $0.event {
                case .faultRaised(let f): f.kind == .receiver
                case .faultCleared(.receiver): true
                default: false
                }
            }) else { return nil }
            if case .faultRaised(let f) = loop.events[i].event { return (i, f) }
            return (i, nil)
        }
        XCTAssertTrue(loop.run(timeout: .seconds(20)) { _ in lastReceiverEvent()?.fault?.message == GPSDWords.reportsStopped },
                      "no reports-stopped fault: \(loop.raised(.receiver).map(\.message))")
        guard case let (raisedIndex, fault?)? = lastReceiverEvent(), fault.message == GPSDWords.reportsStopped else {
            return XCTFail("the receiver's last word is not reports stopped: \(loop.raised(.receiver).map(\.message))")
        }
        XCTAssertEqual(fault.pushes, true)
        // Measured from the reading just before the fault: it must never come sooner than the limit.
        guard let lastReadingAt = loop.events[..<raisedIndex].last(where: { if case .reading = $0.event { true } else { false } })?.at
        else { return XCTFail("no reading before the fault") }
        let raisedAt = loop.events[raisedIndex].at
        let gap = (raisedAt - lastReadingAt).seconds
        print("reports stopped: receiver fault \(gap) s after the last reading (limit 1.5 s), \(loop.raised(.receiver).count) receiver faults in all")
        XCTAssertGreaterThanOrEqual(gap, 1.5, "not before the limit")
        XCTAssertTrue(client.isConnected, "gpsd is fine: it is the receiver that went quiet")

        let count = loop.readings.count
        let clearedBefore = loop.cleared(.receiver)
        for i in 5..<8 { feed(live, loop, epoch: NMEA.fix(secondsOfDay: now - 20 + i, date: date, latitude: 1, longitude: 2)) }
        XCTAssertTrue(loop.run(timeout: .seconds(10)) { _ in loop.cleared(.receiver) > clearedBefore }, "new reports clear it")
        XCTAssertGreaterThan(loop.readings.count, count, "readings resume")
    }

    func testFixThatStopsUpdatingIsNotNewEvidenceAndRaisesReceiverFault() throws {
        let live = try startLive()
        defer { live.stop() }
        let (client, loop) = connected(live) {
            $0.frozenAfter = .seconds(1)
            $0.reportsStoppedAfter = .seconds(30)
        }
        let (date, now) = GPSDClientScenarioTests.today()
        for i in 0..<3 { feed(live, loop, epoch: NMEA.fix(secondsOfDay: now - 20 + i, date: date, latitude: 1, longitude: 2)) }
        // The receiver keeps sending its last epoch, time and all, as some do when they lose
        // their fix without saying so.
        let stuck = NMEA.fix(secondsOfDay: now - 20 + 3, date: date, latitude: 1, longitude: 2)
        let start = PollDriver.now()
        while PollDriver.now() - start < .seconds(4), loop.raised(.receiver).isEmpty {
            feed(live, loop, epoch: stuck)
            loop.run(for: .milliseconds(200))
        }
        let times = loop.readings.compactMap(\.gpsTime)
        XCTAssertEqual(times.count, Set(times).count, "a repeated GPS time reaches the watch once at most")
        print("frozen: \(client.stats.reports) reports, \(client.stats.repeated) repeats dropped, faults \(loop.raised(.receiver).map(\.message))")
        XCTAssertFalse(loop.raised(.receiver).isEmpty, "a frozen receiver is a receiver fault")
        XCTAssertTrue([GPSDWords.frozen, GPSDWords.reportsStopped].contains(loop.raised(.receiver).first?.message ?? ""))
    }
}
