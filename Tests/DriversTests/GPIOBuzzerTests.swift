@testable import Drivers
import LightsAndSounds
import Posix
import WatchCore
import XCTest

final class GPIOBuzzerTests: XCTestCase {
    func testOffFromTheStartAndOffAfterShutdown() {
        let chip = FakeChip()
        let line = chip.add("GPIO17", high: true)
        let buzzer = GPIOBuzzer(chips: chip)
        XCTAssertEqual(buzzer.start(now: .zero), [])
        XCTAssertEqual(line.driven, [false], "requested off")
        buzzer.set(on: true)
        XCTAssertTrue(line.high)
        buzzer.shutdown()
        XCTAssertFalse(line.high)
        buzzer.set(on: true)
        XCTAssertFalse(line.high, "nothing sounds after shutdown")
    }

    func testDeinitTurnsItOff() {
        let chip = FakeChip()
        let line = chip.add("GPIO17")
        var buzzer: GPIOBuzzer? = GPIOBuzzer(chips: chip)
        _ = buzzer?.start(now: .zero)
        buzzer?.set(on: true)
        XCTAssertTrue(line.high)
        buzzer = nil
        XCTAssertFalse(line.high)
    }

    func testAFailedWriteIsReportedAtTheNextTurnAndTheLineComesBackInItsPatternState() {
        let chip = FakeChip()
        let line = chip.add("GPIO17")
        var settings = GPIOSettings()
        settings.retry = .seconds(5)
        let buzzer = GPIOBuzzer(settings: settings, chips: chip)
        _ = buzzer.start(now: .ms(0))
        XCTAssertEqual(buzzer.service(ready: [], now: .ms(10)), [])
        line.failReads = .other(line: "GPIO17", errno: .io)
        buzzer.set(on: true)
        XCTAssertEqual(buzzer.nextDeadline(), .ms(10), "due at once")
        let events = buzzer.service(ready: [], now: .ms(20))
        guard case .faultRaised(let fault) = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(fault.kind, .buzzer)
        XCTAssertEqual(buzzer.nextDeadline(), .ms(5020))
        line.failReads = nil
        XCTAssertEqual(buzzer.service(ready: [], now: .ms(5020)), [.faultCleared(.buzzer)])
        XCTAssertEqual(line.driven.last, true, "requested in the state the pattern wants")
    }

    func testAPlayerDrivesTheLineOnlyWhenItsLevelChanges() {
        let chip = FakeChip()
        let line = chip.add("GPIO17")
        let buzzer = GPIOBuzzer(chips: chip)
        _ = buzzer.start(now: .zero)
        let player = BuzzerPlayer(line: buzzer)
        // Stand-in chirp: two 100 ms beeps with a 50 ms gap, then a tone-less tail.
        let chirp = SoundPattern([.init(2000, .milliseconds(100)), .init(nil, .milliseconds(50)),
                                  .init(2000, .milliseconds(60)), .init(2000, .milliseconds(40))])
        player.play(chirp, now: .ms(1000))
        var transitions: [(Instant, Bool)] = [(.ms(1000), line.high)]
        while let next = player.nextDeadline() {
            _ = player.service(ready: [], now: next)
            transitions.append((next, line.high))
        }
        XCTAssertEqual(transitions.map(\.0), [.ms(1000), .ms(1100), .ms(1150), .ms(1250)])
        XCTAssertEqual(transitions.map(\.1), [true, false, true, false])
        XCTAssertEqual(line.driven, [false, false, true, false, true, false])
    }
}
