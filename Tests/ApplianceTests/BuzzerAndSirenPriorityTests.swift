@testable import Appliance
import Drivers
import LightsAndSounds
import WatchCore
import XCTest

/// The buzzer plays what `SoundPriority` says is heard, after every step of a long random mix
/// of what the box can ask for: the buzzerAndSiren decides no priority of its own.
/// (`ALSASirenTests.testTheSirenSoundsWhatSoundPriorityHears` holds the siren to the same.)
final class BuzzerAndSirenPriorityTests: XCTestCase {
    final class Line: BuzzerLine {
        func set(on: Bool) {}
    }

    func testTheBuzzerPlaysWhatSoundPriorityHears() {
        let buzzerAndSiren = BuzzerAndSiren(buzzer: Line(), siren: nil, book: DesignedSounds())
        var reference = SoundPriority()
        var now = Instant.zero
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        var seen: Set<String> = []
        for step in 0..<2_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let op = Int((seed >> 33) % 7)
            switch op {
            case 0, 1:
                buzzerAndSiren.alarm(on: op == 0, now: now)
                reference.setAlarm(op == 0)
            case 2, 3:
                buzzerAndSiren.fault(on: op == 2, now: now)
                reference.setFault(op == 2)
            case 4:
                buzzerAndSiren.chirp(.mark, now: now)
                _ = reference.play(DesignedSounds().chirp(.mark))
            case 5:
                buzzerAndSiren.notSaved(now: now)
                _ = reference.play(DesignedSounds().notSaved)
            default:
                // Past the longest one-shot: it has ended.
                now = now + .seconds(5)
                buzzerAndSiren.update(now: now)
                reference.oneShotEnded()
            }
            now = now + .milliseconds(10)
            buzzerAndSiren.update(now: now)
            XCTAssertEqual(buzzerAndSiren.sounding, reference.heard, "step \(step), op \(op)")
            seen.insert("\(String(describing: reference.heard))")
        }
        XCTAssertEqual(seen.count, 4, "the mix reached every sound and silence: \(seen)")
    }
}
