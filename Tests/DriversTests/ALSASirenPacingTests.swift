import Drivers
import Glibc
import Posix
import WatchCore
import XCTest

/// The siren on devices that do not keep time, through the real alsa-lib: ALSA's `null`
/// plugin and a `file` sink over it take samples as fast as they are written, so a siren that
/// writes whenever the device has room spins (measured before the pacing: 90% of a core,
/// 313,640 wakeups in 4 s, 4.8 GB into a file sink in 25 s). Each test plays a repeating sound
/// for a few seconds on the real clock, in a loop like the box's (one poll over the siren's
/// descriptors with a timeout to its deadline), and bounds the loop's turns, the CPU time and
/// what reached the device, while the sound still keeps up with the clock.
final class ALSASirenPacingTests: XCTestCase {
    nonisolated(unsafe) static var directory = ""
    nonisolated(unsafe) static var setupError: String?

    override class func setUp() {
        super.setUp()
        let system = "/usr/share/alsa/alsa.conf"
        guard access(system, R_OK) == 0 else {
            setupError = "\(system) is missing: install libasound2-data"
            return
        }
        do {
            directory = try makeTemporaryDirectory("siren-pace")
            try writeText(directory + "/asoundrc",
                          "pcm.aa_paced_file { type file; slave.pcm \"null\"; file \"\(directory)/paced.wav\"; format \"wav\" }\n")
            setenv("ALSA_CONFIG_PATH", "\(system):\(directory)/asoundrc", 1)
        } catch {
            setupError = "\(error)"
        }
    }

    override class func tearDown() {
        removeDirectory(directory)
        super.tearDown()
    }

    func siren(_ device: String) throws -> ALSASiren {
        if let e = Self.setupError { XCTFail(e); throw TestFileError(e) }
        var s = SirenSettings()
        s.device = device
        let siren = ALSASiren(settings: s, now: monotonic())
        let events = siren.service(ready: [], now: monotonic())
        guard siren.deviceOpen else {
            let e = "alsa-lib could not open \"\(device)\": \(events)"
            XCTFail(e)
            throw TestFileError(e)
        }
        return siren
    }

    struct Played {
        var turns: Int
        var cpu: Duration
        var wall: Duration
        var frames: Int
        var events: [Event]
    }

    /// Plays for `length` on the real clock. The loop gives up after `maxTurns`, so a siren that
    /// spins fails in milliseconds rather than filling the disk.
    func play(_ siren: ALSASiren, for length: Duration, maxTurns: Int = 2_000, start: (Instant) -> Void) -> Played {
        let cpu0 = threadCPU()
        let t0 = monotonic()
        let frames0 = siren.framesWritten
        start(t0)
        let end = t0 + length
        var turns = 0
        var events: [Event] = []
        while turns < maxTurns {
            let now = monotonic()
            if now >= end { break }
            let deadline = min(end, siren.nextDeadline() ?? end)
            var fds = siren.pollRequests().map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
            let wait = max(0, (deadline - now).nanoseconds)
            _ = poll(&fds, nfds_t(fds.count), Int32((wait + 999_999) / 1_000_000))
            let after = monotonic()
            let ready = fds.filter { $0.revents != 0 }.map { PollDescriptor(fd: $0.fd, wanted: $0.events, happened: $0.revents) }
            let due = siren.nextDeadline().map { $0 <= after } ?? false
            guard !ready.isEmpty || due else { continue }
            events += siren.service(ready: ready, now: after)
            turns += 1
        }
        return Played(turns: turns, cpu: threadCPU() - cpu0, wall: monotonic() - t0,
                      frames: siren.framesWritten - frames0, events: events)
    }

    /// Paced by the clock: a turn per half buffer or so (a real card wakes the loop once per
    /// period, a quarter of the buffer), little CPU, and frames that follow the clock: never more
    /// than a buffer and a fraction ahead of it, never so few that the sound falls behind.
    func assertPaced(_ p: Played, _ siren: ALSASiren, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let rate = Double(siren.settings.sampleRate)
        let seconds = p.wall.seconds
        let byClock = seconds * rate
        let ahead = siren.settings.buffer.seconds * rate
        print("\(what): \(p.turns) turns, \(Int(p.cpu.seconds * 1000)) ms CPU, \(p.frames) frames in \(Int(seconds * 1000)) ms " +
              "(the clock: \(Int(byClock)) frames), events \(p.events)")
        XCTAssertEqual(p.events, [], "\(what): the siren raised a fault on a device it can pace", file: file, line: line)
        XCTAssertLessThanOrEqual(p.turns, Int(seconds * 50), "\(what): \(p.turns) loop turns in \(seconds) s", file: file, line: line)
        XCTAssertLessThanOrEqual(p.cpu.seconds, 0.25 * seconds, "\(what): \(p.cpu) of CPU in \(seconds) s", file: file, line: line)
        XCTAssertLessThanOrEqual(Double(p.frames), byClock * 1.02 + ahead + rate / 100,
                                 "\(what): \(p.frames) frames written in \(seconds) s, ahead of the clock", file: file, line: line)
        XCTAssertGreaterThanOrEqual(Double(p.frames), byClock * 0.95,
                                    "\(what): \(p.frames) frames in \(seconds) s: the sound fell behind the clock", file: file, line: line)
    }

    func testTheAlarmOnTheNullDeviceIsPacedByTheClock() throws {
        let siren = try self.siren("null")
        let p = play(siren, for: .seconds(3)) { siren.setAlarm(true, now: $0) }
        XCTAssertTrue(siren.isSounding)
        assertPaced(p, siren, "alarm on null")
        siren.setAlarm(false, now: monotonic())
    }

    func testTheFaultPatternIntoAFileIsPacedAndTheFileBounded() throws {
        var siren: ALSASiren? = try self.siren("aa_paced_file")
        let p = play(siren!, for: .seconds(3)) { siren!.setFault(true, now: $0) }
        XCTAssertTrue(siren!.isSounding)
        assertPaced(p, siren!, "fault pattern into a file")
        let frames = siren!.framesWritten
        siren!.setFault(false, now: monotonic())
        siren = nil  // closes the PCM: the file plugin finishes the WAV
        let bytes = try readBytes(Self.directory + "/paced.wav")
        let wav = try WAV(bytes)
        let perFrame = wav.channels * 2
        let rate = 48_000.0
        // What the file holds is what was written, and that was bounded by the clock.
        XCTAssertLessThanOrEqual(bytes.count, 44 + frames * perFrame + 4096, "file \(bytes.count) bytes for \(frames) frames")
        XCTAssertLessThanOrEqual(Double(bytes.count), (p.wall.seconds * 1.02 + 0.12) * rate * Double(perFrame) + 4096,
                                 "\(bytes.count) bytes in \(p.wall.seconds) s")
        print("fault pattern into a file: \(bytes.count) bytes in \(Int(p.wall.seconds * 1000)) ms")
    }

    /// A device that wakes the loop and takes nothing (its descriptors ready, no room, over and
    /// over) can't be paced: a fault, the device closed and tried again later, never a spin.
    func testADeviceThatWakesTheLoopForNothingIsAFault() throws {
        let siren = try self.siren("null")
        var now = monotonic()
        siren.setAlarm(true, now: now)
        var events: [Event] = []
        var wakes = 0
        // Ready at once, again and again, within one millisecond: nothing can be written, since
        // the clock has not moved (the siren is a buffer ahead of it).
        while wakes < 2_000, siren.deviceOpen {
            now = now + .microseconds(1)
            events += siren.service(ready: [PollDescriptor(fd: 1_000, wanted: Int16(POLLOUT), happened: Int16(POLLOUT))], now: now)
            wakes += 1
        }
        XCTAssertFalse(siren.deviceOpen, "a device that woke the loop \(wakes) times for nothing is still in use")
        XCTAssertLessThanOrEqual(wakes, 1_000)
        guard case .faultRaised(let fault)? = events.first else { return XCTFail("no fault: \(events)") }
        XCTAssertEqual(fault.kind, .siren)
        XCTAssertTrue(fault.message.hasPrefix("Siren: sound device \"null\" does not keep time"), fault.message)
        XCTAssertTrue(fault.message.hasSuffix(", the buzzer still rings"), fault.message)
        XCTAssertTrue(siren.pollRequests().isEmpty)
        XCTAssertEqual(siren.nextDeadline(), now + siren.settings.retryAfter)
    }

    func threadCPU() -> Duration {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return .nanoseconds(Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }
}
