import Drivers
import Glibc
import Posix
import LightsAndSounds
import LightsAndSoundsTestSupport
import WatchCore
import XCTest

/// The siren through the real alsa-lib, with its default device routed into a WAV file by the
/// `file` plugin over the `null` device. The null device is not paced in real time (a second
/// of sound "plays" in milliseconds), so pitch and cadence are measured from the recorded
/// samples, and the start latency from the calls. The siren is paced by the clock it is given
/// (`ALSASiren`'s `now`), so these tests give it a clock of their own that moves 10 ms a turn,
/// and seconds of sound take milliseconds (`ALSASirenPacingTests` plays on the real clock).
final class ALSASirenTests: XCTestCase {
    var clock = monotonic()

    nonisolated(unsafe) static var directory = ""
    nonisolated(unsafe) static var setupError: String?

    override class func setUp() {
        super.setUp()
        // ALSA_CONFIG_PATH replaces the global configuration: the system's alsa.conf comes
        // first (it defines the null device and the file plugin's defaults), then ours.
        let system = "/usr/share/alsa/alsa.conf"
        guard access(system, R_OK) == 0 else {
            setupError = "\(system) is missing: install libasound2-data"
            return
        }
        do {
            directory = try makeTemporaryDirectory("siren")
            var rc = ""
            for (name, file) in [("!default", "default"), ("aa_chirp", "chirp"), ("aa_fault", "fault"), ("aa_stop", "stop"), ("aa_direct", "direct"), ("aa_priority", "priority")] {
                rc += "pcm.\(name) { type file; slave.pcm \"null\"; file \"\(directory)/\(file).wav\"; format \"wav\" }\n"
            }
            try writeText(directory + "/asoundrc", rc)
            setenv("ALSA_CONFIG_PATH", "\(system):\(directory)/asoundrc", 1)
        } catch {
            setupError = "\(error)"
        }
    }

    override class func tearDown() {
        removeDirectory(directory)
        super.tearDown()
    }

    func siren(_ device: String = "default", volume: Double = 0.8) throws -> ALSASiren {
        if let e = Self.setupError { XCTFail(e); throw TestFileError(e) }
        var s = SirenSettings()
        s.device = device
        s.volume = volume
        let siren = ALSASiren(settings: s, now: clock)
        let events = siren.service(ready: [], now: clock)
        guard siren.deviceOpen else {
            let e = "alsa-lib could not open \"\(device)\" routed to a file: \(events)"
            XCTFail(e)
            throw TestFileError(e)
        }
        return siren
    }

    /// A small event loop: poll the siren's descriptors, then service it, the clock 10 ms on.
    @discardableResult
    func run(_ siren: ALSASiren, maxTurns: Int = 100_000, until done: () -> Bool) -> [Event] {
        var events: [Event] = []
        var turns = 0
        while !done(), turns < maxTurns {
            var fds = siren.pollRequests().map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 0)
            clock = clock + .milliseconds(10)
            let ready = fds.filter { $0.revents != 0 }.map { PollDescriptor(fd: $0.fd, wanted: $0.events, happened: $0.revents) }
            events += siren.service(ready: ready, now: clock)
            turns += 1
        }
        return events
    }

    func recorded(_ name: String) throws -> WAV {
        let wav = try WAV(readBytes("\(Self.directory)/\(name).wav"))
        XCTAssertEqual(wav.bitsPerSample, 16)
        return wav
    }

    func mono(_ wav: WAV) -> [Int16] {
        wav.channels == 1 ? wav.samples : stride(from: 0, to: wav.samples.count, by: wav.channels).map { wav.samples[$0] }
    }

    // MARK: - The alarm

    func testAlarmSirenPitchCadenceLatencyAndStop() throws {
        var siren: ALSASiren? = try self.siren()
        let rate = siren!.settings.sampleRate

        let called = monotonic()
        siren!.setAlarm(true, now: clock)
        let returned = monotonic()
        let latency = returned - called
        XCTAssertTrue(siren!.isRunning, "the card is not running after the alarm started")
        XCTAssertGreaterThan(siren!.framesWritten, 0)
        XCTAssertLessThan(latency, .milliseconds(100))
        XCTAssertFalse(siren!.pollRequests().isEmpty, "the siren offers no descriptors to the loop while sounding")

        run(siren!) { siren!.framesWritten >= 3 * rate }

        let stopCalled = monotonic()
        siren!.setAlarm(false, now: clock)
        let stopLatency = monotonic() - stopCalled
        XCTAssertFalse(siren!.isRunning)
        XCTAssertTrue(siren!.pollRequests().isEmpty, "a silent siren must not wake the loop")
        let written = siren!.framesWritten
        run(siren!, maxTurns: 5) { false }
        XCTAssertEqual(siren!.framesWritten, written, "samples written after the alarm stopped")
        siren = nil  // closes the PCM, so the file plugin finishes the WAV

        let wav = try recorded("default")
        XCTAssertEqual(wav.sampleRate, rate)
        let samples = mono(wav)
        XCTAssertGreaterThan(samples.count, 2 * rate, "alsa-lib recorded only \(samples.count) frames")
        let tones = ToneAnalysis.tones(samples, sampleRate: wav.sampleRate)
        XCTAssertGreaterThanOrEqual(tones.count, 10)
        let whole = tones.dropFirst().dropLast()  // the last may be cut by the stop
        let high = whole.filter { $0.frequency > 1750 }
        let low = whole.filter { $0.frequency <= 1750 }
        let mean = { (ts: [ToneAnalysis.Tone]) in ts.map(\.frequency).reduce(0, +) / Double(max(1, ts.count)) }
        XCTAssertEqual(mean(Array(high)), SoundDesign.alarmHigh, accuracy: 2)
        XCTAssertEqual(mean(Array(low)), SoundDesign.alarmLow, accuracy: 2)
        // Hi and lo alternate, 0.2 s each, with no gap: each tone starts where the last ended.
        for (a, b) in zip(tones, tones.dropFirst()) {
            XCTAssertNotEqual(a.frequency > 1750, b.frequency > 1750, "two tones of one pitch in a row")
            XCTAssertEqual(b.start - a.start, 0.2, accuracy: 0.002)
        }
        let steps = zip(whole, whole.dropFirst()).map { $1.start - $0.start }
        let step = steps.reduce(0, +) / Double(max(1, steps.count))
        let peak = samples.reduce(0) { max($0, abs(Int($1))) }
        XCTAssertEqual(Double(peak), 0.8 * 32767, accuracy: 0.01 * 32767, "volume 0.8 is not 0.8 of full scale")
        print("""
            siren measured: start latency \(ms(latency)) ms (call to card running), stop \(ms(stopLatency)) ms; \
            high \(fixed(mean(Array(high)), 2)) Hz, low \(fixed(mean(Array(low)), 2)) Hz; \
            step \(fixed(step * 1000, 2)) ms, cycle \(fixed(2 * step * 1000, 2)) ms; \
            \(tones.count) tones in \(samples.count) frames at \(wav.sampleRate) Hz, \(wav.channels) channel(s); peak \(peak)
            """)
    }

    // MARK: - Chirps and the fault pattern

    func testAChirpPlaysOnceAndStops() throws {
        var siren: ALSASiren? = try self.siren("aa_chirp", volume: 0.5)
        siren!.chirp(.mark, now: clock)
        XCTAssertTrue(siren!.isSounding)
        run(siren!, maxTurns: 1000) { !siren!.isSounding }
        XCTAssertFalse(siren!.isSounding, "a chirp never ended")
        XCTAssertTrue(siren!.pollRequests().isEmpty)
        siren = nil
        let wav = try recorded("chirp")
        let tones = ToneAnalysis.tones(mono(wav), sampleRate: wav.sampleRate)
        XCTAssertEqual(tones.map { Int($0.frequency.rounded()) }, [1047, 1568])
        if tones.count == 2 {
            // Mark is short, gap, long: 70 ms, 70 ms, 180 ms (to a period or two).
            XCTAssertEqual(tones[0].end - tones[0].start, 0.070, accuracy: 0.003)
            XCTAssertEqual(tones[1].start - tones[0].start, 0.140, accuracy: 0.003)
            XCTAssertEqual(tones[1].end - tones[1].start, 0.180, accuracy: 0.003)
        }
    }

    func testFaultPatternIsNeverTheAlarm() throws {
        var siren: ALSASiren? = try self.siren("aa_fault")
        let rate = siren!.settings.sampleRate
        siren!.setFault(true, now: clock)
        run(siren!) { siren!.framesWritten >= 6 * rate }
        siren!.setFault(false, now: clock)
        XCTAssertFalse(siren!.isSounding)
        siren = nil
        let wav = try recorded("fault")
        let tones = ToneAnalysis.tones(mono(wav), sampleRate: wav.sampleRate)
        XCTAssertGreaterThanOrEqual(tones.count, 2)
        for t in tones {
            XCTAssertEqual(t.frequency, 660, accuracy: 1)
            XCTAssertNotEqual(Int(t.frequency.rounded()), Int(SoundDesign.alarmHigh))
        }
        for (a, b) in zip(tones, tones.dropFirst()) { XCTAssertEqual(b.start - a.start, 2.5, accuracy: 0.003) }
        if let first = tones.first { XCTAssertEqual(first.end - first.start, 0.5, accuracy: 0.003) }
    }

    func testTheAlarmOutranksChirpsAndTheFaultResumesAfterIt() throws {
        let siren = try self.siren("aa_stop")
        let now = clock
        siren.setFault(true, now: now)
        siren.setAlarm(true, now: now)
        siren.chirp(.refusal, now: now)  // ignored: the alarm says more
        run(siren) { siren.framesWritten >= 48_000 }
        siren.setAlarm(false, now: clock)
        // The fault pattern is back at once, not the chirp.
        XCTAssertTrue(siren.isSounding)
        XCTAssertTrue(siren.isRunning)
        siren.setFault(false, now: clock)
        XCTAssertFalse(siren.isSounding)
        XCTAssertFalse(siren.isRunning)
    }

    /// The siren plays what `SoundPriority` says is heard, after every step of a random mix of
    /// what the box can ask for: it decides no priority of its own (the buzzerAndSiren is held to
    /// the same in `BuzzerAndSirenPriorityTests`).
    func testTheSirenSoundsWhatSoundPriorityHears() throws {
        let siren = try self.siren("aa_priority")
        var reference = SoundPriority()
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        var seen: Set<String> = []
        for step in 0..<300 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let op = Int((seed >> 33) % 7)
            switch op {
            case 0, 1:
                siren.setAlarm(op == 0, now: clock)
                reference.setAlarm(op == 0)
            case 2, 3:
                siren.setFault(op == 2, now: clock)
                reference.setFault(op == 2)
            case 4:
                siren.chirp(.mark, now: clock)
                _ = reference.play(SoundDesign.chirp(.mark))
            case 5:
                siren.notSaved(now: clock)
                _ = reference.play(SoundDesign.notSaved)
            default:
                // Until the one-shot has left the speaker.
                run(siren, maxTurns: 1000) { siren.sounding != .oneShot }
                reference.oneShotEnded()
            }
            XCTAssertEqual(siren.sounding, reference.heard, "step \(step), op \(op)")
            seen.insert("\(String(describing: reference.heard))")
        }
        XCTAssertEqual(seen.count, 4, "the mix reached every sound and silence: \(seen)")
    }

    func testNotSavedPlaysItsOwnPatternOnceInTheSirensVoice() throws {
        var siren: ALSASiren? = try self.siren("aa_direct")
        siren!.notSaved(now: clock)
        XCTAssertTrue(siren!.isSounding)
        run(siren!, maxTurns: 1000) { !siren!.isSounding }
        XCTAssertFalse(siren!.isSounding, "the not-saved sound never ended")
        siren = nil
        let wav = try recorded("direct")
        let tones = ToneAnalysis.tones(mono(wav), sampleRate: wav.sampleRate)
        // Three short low notes and a longer lower one: nothing like a confirmation.
        XCTAssertEqual(tones.map { Int($0.frequency.rounded()) }, [330, 330, 330, 262])
        if tones.count == 4 {
            // Notes 90 ms apart by 70 ms of silence; the last note's tail is where the
            // recording ends, so its onset is what is exact.
            XCTAssertEqual(tones[1].start - tones[0].start, 0.160, accuracy: 0.003)
            XCTAssertEqual(tones[3].start - tones[2].start, 0.160, accuracy: 0.003)
            XCTAssertEqual(tones[3].end - tones[3].start, 0.400, accuracy: 0.02)
        }
    }

    // MARK: - A missing card

    func testAMissingCardIsANamedFaultAndTheSirenStaysQuiet() throws {
        if let e = Self.setupError { return XCTFail(e) }
        var s = SirenSettings()
        s.device = "hw:77"
        let t0 = monotonic()
        let siren = ALSASiren(settings: s, now: t0)
        let events = siren.service(ready: [], now: t0)
        guard case .faultRaised(let fault)? = events.first else { return XCTFail("no fault: \(events)") }
        XCTAssertEqual(fault.kind, .siren)
        XCTAssertTrue(fault.message.hasPrefix("Siren: no sound device \"hw:77\""), fault.message)
        XCTAssertTrue(fault.message.hasSuffix(", the buzzer still rings"), fault.message)
        siren.setAlarm(true, now: t0)
        XCTAssertFalse(siren.isSounding)
        XCTAssertTrue(siren.pollRequests().isEmpty)
        // Retried later, and not raised twice.
        XCTAssertEqual(siren.nextDeadline(), t0 + .seconds(30))
        XCTAssertEqual(siren.service(ready: [], now: t0 + .seconds(31)), [])
    }

    func ms(_ d: Duration) -> String { fixed(d.seconds * 1000, 3) }
    func fixed(_ x: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let n = Int((x * scale).rounded())
        var frac = String(abs(n) % Int(scale))
        while frac.count < digits { frac = "0" + frac }
        return "\(n < 0 ? "-" : "")\(abs(n) / Int(scale)).\(frac)"
    }
}
