import LightsAndSounds
import XCTest

/// The one priority both voices follow (the buzzer's buzzerAndSiren and the siren: their own tests
/// hold each to it, step by step).
final class SoundPriorityTests: XCTestCase {
    let chirp = SoundPattern([.init(880, .milliseconds(80))])
    let other = SoundPattern([.init(440, .milliseconds(80))])

    func testTheAlarmOutranksAOneShotWhichOutranksTheFault() {
        var p = SoundPriority()
        XCTAssertNil(p.heard)
        p.setFault(true)
        XCTAssertEqual(p.heard, .fault)
        XCTAssertTrue(p.play(chirp))
        XCTAssertEqual(p.heard, .oneShot, "a chirp plays over the fault pattern")
        p.setAlarm(true)
        XCTAssertEqual(p.heard, .alarm)
        XCTAssertNil(p.oneShot, "the alarm cuts the chirp; it is not resumed after")
        XCTAssertFalse(p.play(other), "a one-shot asked for while the alarm rings is dropped")
        XCTAssertNil(p.oneShot)
        p.setAlarm(false)
        XCTAssertEqual(p.heard, .fault, "the fault pattern is back at once")
        p.setFault(false)
        XCTAssertNil(p.heard)
    }

    func testTheFaultResumesWhenTheOneShotEndsAndANewOneShotReplacesTheOld() {
        var p = SoundPriority()
        XCTAssertTrue(p.play(chirp))
        p.setFault(true)
        XCTAssertEqual(p.heard, .oneShot, "a fault raised during a chirp waits for it")
        XCTAssertTrue(p.play(other))
        XCTAssertEqual(p.oneShot, other)
        p.oneShotEnded()
        XCTAssertEqual(p.heard, .fault)
        p.silence()
        XCTAssertEqual(p, SoundPriority())
    }
}
