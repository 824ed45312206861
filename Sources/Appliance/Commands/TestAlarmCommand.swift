import Posix
import Drivers
import LightsAndSounds
import WatchCore

/// `anchor-alert test-alarm`: the skipper's check before a night. Lights the ring in each of
/// its colours, sounds the siren and the buzzer for a few seconds, and says for each part
/// whether it worked, in the Systems Check's words.
///
/// It opens the devices itself, so with the box's service running the buzzer line is busy (a
/// line has one owner) and says so; the siren and the ring may be shared.
enum TestAlarmCommand: Command {
    static let name = "test-alarm"
    static let summary = "Sound the siren and the buzzer briefly and light the ring, to check the box"
    static let help = """
        Usage: anchor-alert test-alarm [--config FILE]

        Lights the LED ring in each of its colours, then at full brightness; sounds the siren
        (a second of the alarm, then one note of the fault pattern) and the buzzer's alarm
        rhythm; then turns them all off. About three seconds. Each part says how it went:
          LED ring: lit 12 pixels on /dev/spidev0.0
          Siren: sounded on "default"
          Buzzer: sounded on GPIO17
        A part that failed says why, and the box's Systems Check will show the same fault.
        When nothing sounded (no buzzer and no siren fitted, or both failed) it says so:
          Alarm: nothing can sound, the box can't ring: no buzzer is fitted and no siren is fitted

          --config FILE   the configuration file (default /etc/anchor-alert/anchor-alert.conf)

        Exit status: 0 every fitted part worked and something sounded, 1 a part failed or
        nothing can sound, 64 usage.
        """

    /// How long the buzzer plays the alarm's 0.2 s on, 0.2 s off.
    static let buzzerLength: Duration = .milliseconds(1200)
    /// However the devices behave, the test ends by then.
    static let limit: Duration = .seconds(6)

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        let configPath: String?
        do {
            configPath = try a.option("--config")
            _ = try a.finish(maxPositionals: 0)
        } catch {
            Console.error("anchor-alert test-alarm: \(error)")
            return ExitCode.usage
        }
        let loaded = Configuration.load(path: configPath ?? Configuration.defaultPath, explicit: configPath != nil)
        for problem in loaded.problems { Console.error("anchor-alert: \(problem)") }
        let config = loaded.configuration
        var failed = false
        func report(_ line: String, failure: Bool = false) {
            print(line)
            if failure { failed = true }
        }

        // The ring.
        let ringSettings = config.ringSettings
        var ring: SPIRing?
        if config.ring.enabled {
            do {
                ring = try SPIRing(path: config.ring.device, encoder: config.ring.wiring.encoder)
            } catch {
                report("\(error)", failure: true)
            }
        }
        let frames = ring == nil ? [] : RingTestPattern.frames(settings: ringSettings)
        var ringFailure: String?

        // The buzzer.
        var buzzer: GPIOBuzzer?
        var buzzerFault: Fault?
        if config.gpio.buzzerEnabled {
            let wired = Wiring(config: config, now: MonotonicClock.now()).gpio(realSwitch: false)
            if let b = wired.buzzer {
                for case .faultRaised(let f) in b.start(now: MonotonicClock.now()) { buzzerFault = f }
                buzzer = b.isWorking ? b : nil
            }
        }

        // The siren, as `run` builds it: opened first (that takes a moment), so the parts start
        // together.
        let siren = Wiring(config: config, now: MonotonicClock.now()).siren()
        var sirenFault: Fault?
        let start = MonotonicClock.now()
        // The buzzer first: starting the siren takes a moment, the first buzz should not.
        var buzzing = SoundDesign.alarmBuzz.isOn(at: .zero) && buzzer != nil
        if buzzing { buzzer?.set(on: true) }
        siren?.play(SoundDesign.testAlarm, now: start)

        // One small loop: the ring's frames and the buzzer's steps on the clock, the siren fed
        // whenever its card has room.
        let ringLength = RingTestPattern.step * frames.count
        let end = start + max(ringLength, buzzer == nil ? .zero : buzzerLength)
        var shown = 0
        var ready: [PollDescriptor] = []
        while true {
            let now = MonotonicClock.now()
            let elapsed = now - start
            while shown < frames.count, elapsed >= RingTestPattern.step * shown, ringFailure == nil {
                do { try ring?.show(frames[shown]) } catch { ringFailure = "\(error)" }
                shown += 1
            }
            let on = elapsed < buzzerLength && SoundDesign.alarmBuzz.isOn(at: elapsed)
            if let buzzer, on != buzzing {
                buzzer.set(on: on)
                buzzing = on
            }
            if let siren {
                for case .faultRaised(let f) in siren.service(ready: ready, now: now) where sirenFault == nil { sirenFault = f }
            }
            let sirenBusy = siren.map { $0.isSounding && sirenFault == nil } ?? false
            if (now >= end && !sirenBusy) || elapsed >= limit { break }

            // Past the end, only the siren (still playing its last notes) wakes the loop.
            var wake = now < end ? [end] : [start + limit]
            if shown < frames.count { wake.append(start + RingTestPattern.step * shown) }
            if elapsed < buzzerLength, let next = SoundDesign.alarmBuzz.nextChange(after: elapsed) { wake.append(start + next) }
            if let d = siren?.nextDeadline() { wake.append(d) }
            let timeout = max(0, min(100, Int32(((wake.min()! - now).seconds * 1000).rounded(.up))))
            var fds = siren?.pollRequests() ?? []
            if fds.isEmpty {
                MonotonicClock.sleep(seconds: Double(timeout) / 1000)
            } else {
                _ = try? Poll.wait(&fds, timeoutMilliseconds: timeout)
            }
            ready = fds.filter { $0.happened != 0 }
        }
        buzzer?.set(on: false)
        if let b = buzzer {
            // A line lost during the test is reported at the buzzer's next turn.
            for case .faultRaised(let f) in b.service(ready: [], now: MonotonicClock.now()) { buzzerFault = f }
            b.shutdown()
        }
        siren?.stopAll()

        if ring != nil {
            if let ringFailure {
                report(ringFailure, failure: true)
            } else {
                report("LED ring: lit \(ringSettings.pixelCount) pixels on \(config.ring.device)")
            }
        }
        if let buzzerFault {
            report(buzzerFault.message, failure: true)
        } else if buzzer != nil {
            report("Buzzer: sounded on \(config.gpio.buzzer)")
        }
        if let siren {
            if let sirenFault {
                report(sirenFault.message, failure: true)
            } else if siren.framesWritten > 0 {
                report("Siren: sounded on \"\(siren.settings.device)\"")
            } else {
                report("Siren: \"\(siren.settings.device)\" took no sound, \(ALSASiren.consequence)", failure: true)
            }
        }
        // Nothing sounded: the box could not ring tonight, and that is the first thing to say.
        let buzzerSounded = buzzer != nil && buzzerFault == nil
        let sirenSounded = siren != nil && sirenFault == nil && (siren?.framesWritten ?? 0) > 0
        if !buzzerSounded && !sirenSounded {
            let buzzerWhy = config.gpio.buzzerEnabled ? "the buzzer did not sound" : "no buzzer is fitted"
            let sirenWhy = config.siren.enabled ? "the siren did not sound" : "no siren is fitted"
            report("Alarm: nothing can sound, the box can't ring: \(buzzerWhy) and \(sirenWhy)", failure: true)
        }
        return failed ? ExitCode.failure : ExitCode.ok
    }

}
