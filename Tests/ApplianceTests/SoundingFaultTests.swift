@testable import Appliance
import Drivers
import LightsAndSounds
import WatchCore
import XCTest

/// A sounding fault names its real cause and a remedy that fits it; a radius the receiver can't
/// judge is said when it is set (issue 26, "A sounding fault can be answered").
final class SoundingFaultTests: XCTestCase {
    struct Rig {
        let trace = BoxTests.Trace()
        let box: Box
        var now = Instant(seconds: 100)

        init() {
            box = Box(watch: Watch(settings: WatchSettings()), sources: [],
                      buzzerAndSiren: BuzzerAndSiren(buzzer: BoxTests.FakeBuzzer(trace), siren: BoxTests.FakeSiren(trace), book: DesignedSounds()),
                      log: BoxTests.FakeLog(trace), wall: { 1_700_000_000 })
        }

        mutating func fixes(_ count: Int, accuracy: Meters) {
            for _ in 0..<count {
                box.handle(.reading(GPSReading(mode: .threeD, position: Coordinate(latitude: 54, longitude: 13), accuracy: accuracy, received: now)), now: now)
                now = now + .seconds(1)
                box.serve([], now: now)
            }
        }

        mutating func decide(_ d: Decision) -> DecisionOutcome? {
            var outcome: DecisionOutcome?
            box.handle(.decision(d), now: now) { outcome = $0 }
            return outcome
        }
    }

    func testARadiusTooSmallForTheReceiversAccuracyIsSaidWithTheSmallestThatWorks() {
        var rig = Rig()
        rig.fixes(10, accuracy: 17)
        XCTAssertNotNil(rig.decide(.mark(.here)))
        guard case .accepted(let receipt, _) = rig.decide(.setRadius(5)) else { return XCTFail("radius 5 m refused") }
        XCTAssertEqual(Words.receipt(receipt, now: rig.now),
                       "Alert radius: 5 m, too small for this GPS's accuracy: 9 m or more can be judged")
        guard case .accepted(let wide, _) = rig.decide(.setRadius(9)) else { return XCTFail("radius 9 m refused") }
        XCTAssertEqual(Words.receipt(wide, now: rig.now), "Alert radius: 9 m", "9 m judges a 17 m accuracy")
    }

    func testTheGPSFaultNamesPoorAccuracyNotANoReadingAndItsRemedyIsARadius() {
        var rig = Rig()
        rig.fixes(10, accuracy: 3)
        _ = rig.decide(.mark(.here))
        _ = rig.decide(.setRadius(5))
        _ = rig.box.handle(.armSwitch(on: true), now: rig.now)
        rig.fixes(90, accuracy: 17)
        guard let fault = rig.box.watch.faults[.gpsLost] else { return XCTFail("no GPS fault after 90 s of 17 m readings") }
        XCTAssertEqual(fault.message, "GPS: accuracy too poor for a 5 m alert radius, 9 m or more can be judged")
        XCTAssertTrue(rig.box.watch.faultSounding)
        let status = rig.box.watch.status(at: rig.now)
        let row = SystemsCheck.gpsRow(status: status, fault: fault)
        XCTAssertEqual(row.remedy, "Set an alert radius this GPS can judge: anchor-alert radius 9")
    }

    /// gpsd stops answering: for the 60 s before the GPS-lost fault, the readings are old and
    /// the row about them gives gpsd's fix, not "a clear view of the sky" (found on a first
    /// night run again with gpsd pulled).
    func testAnOldReadingWithGpsdDownGivesGpsdsFixBeforeTheFaultToo() {
        var rig = Rig()
        rig.fixes(10, accuracy: 3)
        _ = rig.decide(.mark(.here))
        _ = rig.box.handle(.armSwitch(on: true), now: rig.now)
        _ = rig.box.handle(.faultRaised(Fault(.gpsd, "GPS: gpsd is not running")), now: rig.now)
        rig.now = rig.now + .seconds(20)
        rig.box.serve([], now: rig.now)
        let status = rig.box.watch.status(at: rig.now)
        XCTAssertNil(rig.box.watch.faults[.gpsLost], "20 s in: within the grace")
        let row = SystemsCheck.gpsRow(status: status, fault: nil)
        XCTAssertEqual(row.answer, "No: GPS reading is old")
        XCTAssertEqual(row.remedy, SystemsCheck.Component.gpsd.remedy)
    }

    func testAReceiverWithNoFixIsNamedAsSuch() {
        var rig = Rig()
        rig.fixes(10, accuracy: 3)
        _ = rig.decide(.mark(.here))
        _ = rig.box.handle(.armSwitch(on: true), now: rig.now)
        for _ in 0..<90 {
            rig.box.handle(.reading(GPSReading(mode: .noFix, position: nil, accuracy: nil, received: rig.now)), now: rig.now)
            rig.now = rig.now + .seconds(1)
            rig.box.serve([], now: rig.now)
        }
        XCTAssertEqual(rig.box.watch.faults[.gpsLost]?.message, "GPS: the receiver has had no position for 1:00, can't judge a drag")
    }

    func testASnoozedFaultSoundsAgainWhenTheSnoozeEndsAndLeavesNoSnoozeRecord() {
        var rig = Rig()
        rig.fixes(10, accuracy: 3)
        _ = rig.decide(.mark(.here))
        _ = rig.box.handle(.armSwitch(on: true), now: rig.now)
        _ = rig.box.handle(.faultRaised(Fault(.receiver, "GPS: receiver unplugged")), now: rig.now)
        XCTAssertTrue(rig.box.watch.faultSounding)
        rig.trace.events.removeAll()
        guard case .accepted(let receipt, let saved) = rig.decide(.snooze(episode: 0)) else { return XCTFail("fault snooze refused") }
        XCTAssertTrue(saved, "a fault snooze needs no record and is confirmed at once")
        XCTAssertTrue(receipt.silencesFault)
        XCTAssertTrue(rig.trace.events.contains("siren fault off"), "\(rig.trace.events)")
        XCTAssertFalse(rig.trace.events.contains("journal synced"), "a fault snooze is not journaled: \(rig.trace.events)")
        XCTAssertFalse(rig.box.watch.faultSounding)
        XCTAssertEqual(rig.box.watch.alarm, .armed)
        // Half way, still quiet; after the snooze's length the fault, still there, sounds again.
        let snooze = rig.box.watch.settings.snooze
        rig.now = rig.now + snooze / 2
        rig.box.handle(.tick, now: rig.now)
        XCTAssertFalse(rig.box.watch.faultSounding)
        XCTAssertEqual(rig.box.watch.nextDeadline(after: rig.now).map { $0 <= rig.now + snooze / 2 }, true,
                       "the snooze's end is a deadline the loop wakes for")
        rig.trace.events.removeAll()
        rig.now = rig.now + snooze / 2
        rig.box.handle(.tick, now: rig.now)
        XCTAssertTrue(rig.box.watch.faultSounding, "the fault sounds again after its snooze")
        XCTAssertTrue(rig.trace.events.contains("siren fault"), "\(rig.trace.events)")
    }

    func testASnoozeWithNothingSoundingIsStillRefused() {
        var rig = Rig()
        rig.fixes(10, accuracy: 3)
        _ = rig.decide(.mark(.here))
        _ = rig.box.handle(.armSwitch(on: true), now: rig.now)
        XCTAssertEqual(rig.decide(.snooze(episode: 0)), .refused(.notRinging))
    }
}
