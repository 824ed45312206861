import LightsAndSounds
import WatchCore
import XCTest

final class PatternPlayerTests: XCTestCase {
    /// The alarm buzz of the design: 0.2 s on, 0.2 s off, until stopped.
    let alarm = SoundPattern([.init(3000, .milliseconds(200)), .init(nil, .milliseconds(200))], repeats: true)
    /// A stand-in chirp (the real ones are the sound design's): beep, gap, two beeps run together.
    let chirp = SoundPattern([.init(2000, .milliseconds(80)), .init(nil, .milliseconds(40)),
                              .init(2500, .milliseconds(80)), .init(2000, .milliseconds(80))])

    func ms(_ n: Int64) -> Instant { Instant(nanoseconds: n * 1_000_000) }

    func testTheAlarmBuzzAlternatesEveryTwoTenthsOfASecondForever() {
        var p = PatternPlayer()
        p.start(alarm, at: ms(1000))
        var t = ms(1000)
        var levels: [Bool] = []
        var times: [Instant] = [t]
        for _ in 0..<50 {
            levels.append(p.isOn(at: t))
            guard let next = p.nextChange(after: t) else { return XCTFail("a repeating pattern always changes") }
            t = next
            times.append(t)
        }
        XCTAssertEqual(levels, (0..<50).map { $0 % 2 == 0 })
        XCTAssertEqual(times.last, ms(1000 + 50 * 200))
        XCTAssertEqual(zip(times.dropFirst(), times).map { $0 - $1 }, Array(repeating: .milliseconds(200), count: 50))
        XCTAssertTrue(p.isPlaying(at: ms(1_000_000)))
        XCTAssertEqual(p.isOn(at: ms(1000 + 3_600_000 + 250)), false, "an hour later, the cycle is where it should be")
    }

    func testALateWakeUpLandsOnTheCurrentStep() {
        var p = PatternPlayer()
        p.start(alarm, at: ms(0))
        XCTAssertEqual(p.isOn(at: ms(530)), true, "third step: on")
        XCTAssertEqual(p.nextChange(after: ms(530)), ms(600))
        XCTAssertEqual(p.isOn(at: ms(610)), false)
    }

    func testAChirpPlaysOnceAndMergesStepsOfTheSameLevel() {
        var p = PatternPlayer()
        p.start(chirp, at: ms(100))
        XCTAssertTrue(p.isOn(at: ms(100)))
        XCTAssertEqual(p.nextChange(after: ms(100)), ms(180))
        XCTAssertFalse(p.isOn(at: ms(180)))
        XCTAssertEqual(p.nextChange(after: ms(180)), ms(220))
        XCTAssertTrue(p.isOn(at: ms(220)))
        XCTAssertEqual(p.nextChange(after: ms(220)), ms(380), "the two beeps are one level: no wake-up at 300")
        XCTAssertFalse(p.isOn(at: ms(380)))
        XCTAssertNil(p.nextChange(after: ms(380)))
        XCTAssertFalse(p.isPlaying(at: ms(380)))
    }

    func testStopSilencesAtOnce() {
        var p = PatternPlayer()
        p.start(alarm, at: ms(0))
        p.stop()
        XCTAssertFalse(p.isOn(at: ms(50)))
        XCTAssertNil(p.nextChange(after: ms(50)))
    }

    func testPatternsThatNeverChangeAskForNoWakeUp() {
        var p = PatternPlayer()
        p.start(SoundPattern([.init(nil, .seconds(1))], repeats: true), at: ms(0))
        XCTAssertNil(p.nextChange(after: ms(10)))
        p.start(SoundPattern([], repeats: true), at: ms(0))
        XCTAssertFalse(p.isOn(at: ms(10)))
        XCTAssertNil(p.nextChange(after: ms(10)))
        p.start(SoundPattern([.init(440, .seconds(1))], repeats: true), at: ms(0))
        XCTAssertTrue(p.isOn(at: ms(5000)))
        XCTAssertNil(p.nextChange(after: ms(5000)))
    }

    func testARestartBeginsThePatternAgain() {
        var p = PatternPlayer()
        p.start(chirp, at: ms(0))
        p.start(alarm, at: ms(50))
        XCTAssertTrue(p.isOn(at: ms(50)))
        XCTAssertEqual(p.nextChange(after: ms(50)), ms(250))
    }
}
