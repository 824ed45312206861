import Drivers
import Glibc
import Posix
import LightsAndSounds
import LightsAndSoundsTestSupport
import WatchCore
import XCTest

/// The siren in real time: through alsa-lib into the kernel's loopback sound card (snd-aloop),
/// paced like a real card, while `arecord` captures the other end. Needs snd-aloop, so it runs
/// inside the VM (`scripts/test-ring.sh` runs it there); elsewhere it fails and says so.
///
/// Measured and printed: the delay from `setAlarm(true)` to the first sound on the card's clock
/// (the capture's trigger time plus the first tone's place in it), the lag from `setAlarm(false)`
/// to the last sound, underruns while the loop feeds it, and pitch and cadence in real time.
final class ALSASirenLoopbackTests: XCTestCase {
    let status = "/proc/asound/Loopback/pcm1c/sub0/status"

    func testRealTimeThroughTheLoopbackCard() throws {
        guard access("/proc/asound/Loopback", F_OK) == 0 else {
            return XCTFail("snd-aloop is not loaded: this test runs inside the VM (scripts/test-ring.sh)")
        }
        let dir = try makeTemporaryDirectory("aloop")
        addTeardownBlock { removeDirectory(dir) }
        let capture = dir + "/capture.wav"
        let recorder = try spawn(["arecord", "-q", "-D", "hw:Loopback,1,0", "-f", "S16_LE", "-r", "48000", "-c", "1",
                                  "-d", "4", capture])
        // The capture's trigger time is on CLOCK_MONOTONIC, the clock `Instant` reads.
        var trigger: Double?
        let waitUntil = monotonic() + .seconds(5)
        while trigger == nil, monotonic() < waitUntil {
            let text = (try? readBytes(status)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            if text.contains("state: RUNNING"), let line = text.split(separator: "\n").first(where: { $0.hasPrefix("trigger_time") }) {
                trigger = Double(line.split(separator: ":").last!.filter { $0 != " " })
            }
            usleep(5_000)
        }
        guard let trigger else { return XCTFail("arecord never started capturing from the loopback card") }

        var settings = SirenSettings()
        settings.device = "plughw:Loopback,0,0"
        settings.volume = 0.5
        // The VM's CPU is emulated in software and this is a debug build: a longer buffer than
        // the box's 100 ms gives the loop room. The first sound does not wait for it.
        settings.buffer = .milliseconds(250)
        let siren = ALSASiren(settings: settings, now: monotonic())
        let opened = siren.service(ready: [], now: monotonic())
        guard siren.deviceOpen else { return XCTFail("the loopback card did not open: \(opened)") }

        let called = monotonic()
        siren.setAlarm(true, now: called)
        let callTook = siren.lastStartLatency ?? .zero
        // The loop, in real time: poll the siren's descriptors, service it when they are ready.
        var wakes = 0
        while monotonic() < called + .milliseconds(1600) {
            var fds = siren.pollRequests().map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 50)
            let ready = fds.filter { $0.revents != 0 }.map { PollDescriptor(fd: $0.fd, wanted: $0.events, happened: $0.revents) }
            _ = siren.service(ready: ready, now: monotonic())
            wakes += 1
        }
        let stopped = monotonic()
        siren.setAlarm(false, now: stopped)
        XCTAssertFalse(siren.isRunning)
        var exit: Int32 = 0
        waitpid(recorder, &exit, 0)

        let wav = try WAV(readBytes(capture))
        let tones = ToneAnalysis.tones(wav.samples, sampleRate: wav.sampleRate)
        guard let first = tones.first, let last = tones.last, tones.count >= 6 else {
            return XCTFail("captured \(tones.count) tones in \(wav.samples.count) samples")
        }
        let startDelay = trigger + first.start - called.seconds
        let stopLag = trigger + last.end - stopped.seconds
        // The VM's CPU is emulated and shared: times are measured and printed, and only gross
        // failures fail (a start that waited on something, a stop that drained the buffer). The
        // 100 ms requirement is checked from the calls by ALSASirenTests.
        XCTAssertLessThan(startDelay, 1, "the first sound came \(startDelay) s after the alarm")
        XCTAssertLessThan(stopLag, 0.15, "the siren sounded \(stopLag) s after it was stopped: drained, not dropped")
        let pitches = Set(tones.map { Int(($0.frequency / 10).rounded()) * 10 })
        XCTAssertTrue(pitches.isSuperset(of: [2000, 1500]), "pitches heard: \(pitches)")
        let steps = zip(tones, tones.dropFirst()).map { $1.start - $0.start }
        let onBeat = steps.filter { abs($0 - 0.2) < 0.003 }.count
        XCTAssertGreaterThanOrEqual(onBeat, steps.count / 2, "tone steps heard: \(steps)")
        print("""
            siren in real time (snd-aloop): first sound \(Int((startDelay * 1000).rounded())) ms after the alarm \
            (the card running after \(Int((callTook.seconds * 1000).rounded())) ms); last sound \(Int((stopLag * 1000).rounded())) ms \
            after stop; \(tones.count) tones, underruns \(siren.underruns), \(wakes) loop turns in 1.6 s
            """)
    }

    func spawn(_ args: [String]) throws -> pid_t {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        let rc = posix_spawnp(&pid, args[0], nil, nil, &argv, environ)
        guard rc == 0 else { throw TestFileError("can't start \(args[0]): \(String(cString: strerror(rc)))") }
        return pid
    }
}
