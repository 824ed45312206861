import LightsAndSounds
import LightsAndSoundsTestSupport
import WatchCore
import XCTest

final class SoundDesignTests: XCTestCase {
    /// What the buzzer can tell apart: the on and off durations, not the pitch.
    func rhythm(_ p: SoundPattern) -> [Int64] {
        p.steps.map { ($0.isOn ? 1 : -1) * $0.duration.nanoseconds / 1_000_000 } + [p.repeats ? 1 : 0]
    }
    func notes(_ p: SoundPattern) -> Int { p.steps.filter(\.isOn).count }

    func testEverySoundHasItsOwnRhythmOnTheBuzzer() {
        var all = Chirp.allCases.map { ("\($0)", SoundDesign.chirp($0)) }
        all += [("alarm", SoundDesign.alarmBuzz), ("fault", SoundDesign.fault), ("not saved", SoundDesign.notSaved)]
        for (i, a) in all.enumerated() {
            for b in all[(i + 1)...] {
                XCTAssertNotEqual(rhythm(a.1), rhythm(b.1), "\(a.0) and \(b.0) sound the same on the buzzer")
            }
        }
    }

    func testOutcomesThatMustBeToldApartHaveDifferentNoteCounts() {
        XCTAssertNotEqual(notes(SoundDesign.chirp(.mark)), notes(SoundDesign.chirp(.release)))
        XCTAssertNotEqual(notes(SoundDesign.chirp(.arm)), notes(SoundDesign.chirp(.disarm)))
        let accepted: [Chirp] = [.mark, .release, .arm, .disarm, .snooze, .radiusStep]
        for c in accepted {
            XCTAssertGreaterThan(notes(SoundDesign.chirp(.refusal)), notes(SoundDesign.chirp(c)), "refusal vs \(c)")
        }
        // Taken but not saved is neither a yes nor a no: more notes than the refusal and any
        // confirmation, and lower than either.
        XCTAssertGreaterThan(notes(SoundDesign.notSaved), notes(SoundDesign.chirp(.refusal)))
        XCTAssertLessThan(SoundDesign.notSaved.steps.compactMap(\.frequency).max()!,
                          SoundDesign.chirp(.refusal).steps.compactMap(\.frequency).min()!)
        XCTAssertFalse(SoundDesign.notSaved.repeats)
        // Snooze has its own: no other chirp has its rhythm or its pitches.
        let snooze = SoundDesign.chirp(.snooze)
        for c in Chirp.allCases where c != .snooze {
            XCTAssertNotEqual(SoundDesign.chirp(c).steps.compactMap(\.frequency), snooze.steps.compactMap(\.frequency), "\(c)")
        }
    }

    func testChirpsAreShortAndPlayOnce() {
        for c in Chirp.allCases {
            let p = SoundDesign.chirp(c)
            XCTAssertFalse(p.repeats, "\(c)")
            XCTAssertLessThanOrEqual(p.length, .milliseconds(500), "\(c)")
            XCTAssertTrue(p.steps.first?.isOn ?? false, "\(c) starts with silence")
        }
    }

    func testAlarmAndFault() {
        XCTAssertEqual(SoundDesign.alarmBuzz.steps.map(\.isOn), [true, false])
        XCTAssertEqual(SoundDesign.alarmBuzz.steps.map(\.duration), [.milliseconds(200), .milliseconds(200)])
        XCTAssertTrue(SoundDesign.alarmBuzz.repeats)
        // The siren never stops between its tones while ringing.
        XCTAssertTrue(SoundDesign.alarmSiren.steps.allSatisfy(\.isOn))
        XCTAssertEqual(Set(SoundDesign.alarmSiren.steps.compactMap(\.frequency)).count, 2)
        XCTAssertEqual(SoundDesign.alarmSiren.length, SoundDesign.alarmBuzz.length)
        // A fault is never the drag siren: other pitch, other rhythm, mostly silence.
        let fault = SoundDesign.fault
        XCTAssertTrue(fault.repeats)
        XCTAssertTrue(Set(fault.steps.compactMap(\.frequency)).isDisjoint(with: SoundDesign.alarmSiren.steps.compactMap(\.frequency)))
        XCTAssertGreaterThan(fault.length, .seconds(2))
        XCTAssertEqual(SoundDesign.waveform(for: SoundDesign.alarmSiren), .bright)
        XCTAssertEqual(SoundDesign.waveform(for: fault), .sine)
    }

    // MARK: - Synthesis

    func testSynthesisHasThePatternsPitchLengthAndVolume() {
        let rate = 48_000
        let samples = ToneGenerator.synthesize(SoundDesign.alarmSiren, sampleRate: rate, volume: 0.5,
                                               waveform: .bright, passes: 5)
        XCTAssertEqual(samples.count, 5 * 19_200)
        let tones = ToneAnalysis.tones(samples, sampleRate: rate)
        // Two tones per pass, with no gap: the analysis finds each change of pitch.
        XCTAssertEqual(tones.count, 10)
        for (k, t) in tones.enumerated() {
            XCTAssertEqual(t.frequency, k % 2 == 0 ? 2000 : 1500, accuracy: 1)
            XCTAssertEqual(t.start, 0.2 * Double(k), accuracy: 0.002)
        }
        let peak = samples.reduce(0) { max($0, abs(Int($1))) }
        XCTAssertEqual(Double(peak), 0.5 * 32767, accuracy: 20)
    }

    func testChirpSynthesisIsExactAndFades() {
        let rate = 8_000
        let mark = ToneGenerator.synthesize(SoundDesign.chirp(.mark), sampleRate: rate, volume: 1)
        XCTAssertEqual(mark.count, 320 * rate / 1000)
        // Faded in and out: no click at the edges.
        XCTAssertLessThan(abs(Int(mark[0])), 4000)
        XCTAssertLessThan(abs(Int(mark[mark.count - 1])), 4000)
        // The gap is silence.
        XCTAssertTrue(mark[(75 * 8)..<(135 * 8)].allSatisfy { $0 == 0 })
        let tones = ToneAnalysis.tones(mark, sampleRate: rate)
        XCTAssertEqual(tones.map { Int($0.frequency.rounded()) }, [1047, 1568])
    }

    func testStreamingMatchesTheWholeAndARepeatingPatternNeverEnds() {
        let pattern = SoundDesign.fault
        let whole = ToneGenerator.synthesize(pattern, sampleRate: 16_000, volume: 0.8, passes: 3)
        var g = ToneGenerator(pattern: pattern, sampleRate: 16_000, volume: 0.8)
        var streamed: [Int16] = []
        while streamed.count < whole.count { g.render(min(977, whole.count - streamed.count), into: &streamed) }
        XCTAssertEqual(streamed, whole)
        XCTAssertFalse(g.finished)
        var once = ToneGenerator(pattern: SoundDesign.chirp(.arm), sampleRate: 16_000, volume: 1)
        var out: [Int16] = []
        XCTAssertEqual(once.render(100_000, into: &out), 16 * 180)
        XCTAssertTrue(once.finished)
        XCTAssertEqual(once.render(10, into: &out), 0)
    }

    func testVolumeScalesSamples() {
        let loud = ToneGenerator.synthesize(SoundDesign.chirp(.arm), sampleRate: 8_000, volume: 1)
        let quiet = ToneGenerator.synthesize(SoundDesign.chirp(.arm), sampleRate: 8_000, volume: 0.25)
        XCTAssertEqual(quiet.reduce(0) { max($0, abs(Int($1))) }, 8192, accuracy: 82)
        XCTAssertEqual(loud.reduce(0) { max($0, abs(Int($1))) }, 32767, accuracy: 327)
        XCTAssertTrue(ToneGenerator.synthesize(SoundDesign.chirp(.arm), sampleRate: 8_000, volume: 0).allSatisfy { $0 == 0 })
    }
}

final class SoundPatternTimingTests: XCTestCase {
    func testBuzzerTimingOfARepeatingPattern() {
        let buzz = SoundDesign.alarmBuzz
        XCTAssertTrue(buzz.isOn(at: .zero))
        XCTAssertTrue(buzz.isOn(at: .milliseconds(199)))
        XCTAssertFalse(buzz.isOn(at: .milliseconds(200)))
        XCTAssertTrue(buzz.isOn(at: .milliseconds(4000)))
        XCTAssertEqual(buzz.nextChange(after: .milliseconds(4050)), .milliseconds(4200))
        XCTAssertEqual(buzz.nextChange(after: .milliseconds(4200)), .milliseconds(4400))
    }

    func testAOneShotPatternEnds() {
        let mark = SoundDesign.chirp(.mark)
        XCTAssertTrue(mark.isOn(at: .milliseconds(10)))
        XCTAssertFalse(mark.isOn(at: .milliseconds(100)))
        XCTAssertTrue(mark.isOn(at: .milliseconds(200)))
        XCTAssertNil(mark.step(at: .milliseconds(320)))
        XCTAssertEqual(mark.nextChange(after: .milliseconds(150)), .milliseconds(320))
        XCTAssertNil(mark.nextChange(after: .milliseconds(320)))
    }

    func testRingTestPatternLightsEveryPixelInEveryRole() {
        var s = RingSettings()
        s.pixelCount = 12
        let frames = RingTestPattern.frames(settings: s)
        XCTAssertEqual(frames.count, 7)
        for f in frames.dropLast() { XCTAssertEqual(f.count, 12); XCTAssertFalse(f.contains(.black)) }
        XCTAssertEqual(Set(frames.dropLast().map { $0[0] }).count, 6)
        XCTAssertEqual(frames.last, Array(repeating: .black, count: 12))
    }
}
