import Posix
import CLinux
import Drivers
import Journal
import Recordings
import WatchCore

/// `anchor-alert run`: the box itself. One event loop until SIGTERM.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "Run the box: watch the anchor until stopped"
    static let help = """
        Usage: anchor-alert run [--config FILE] [--simulate hold|drag|swing|demo|FILE] [--speed N]
                                [--switch on|off] [--journal-dir DIR] [--runtime-dir DIR]

        Runs the watch: reads GPS from gpsd (or a simulated boat), drives the buzzer, the siren
        and the LED ring, reads the arm switch and the button, keeps the journal, writes the
        status snapshot and answers the control socket. Stops on SIGTERM or SIGINT; SIGHUP
        re-reads the configuration and reports its problems.

          --config FILE        configuration (default \(Configuration.defaultPath); a missing
                               default file means defaults; a bad file means defaults and the
                               configuration fault)
          --simulate WHAT      a simulated GPS instead of gpsd: hold, drag, swing, demo (scripted
                               boats) or FILE (a recorded log played at its own pace)
          --speed N            script seconds per real second for --simulate (default 1)
          --switch on|off      a simulated arm switch (for tests and benches) in place of the
                               GPIO one, in this position at start; then SIGUSR1 slides it to
                               ARM and SIGUSR2 slides it off
          --journal-dir DIR    overrides journal.directory
          --runtime-dir DIR    overrides runtime.directory

        Exit status: 0 stopped by a signal, 64 usage. Nothing else stops it: a bad configuration,
        a damaged journal or a missing device is a fault the box announces while it keeps watching.
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        let configPath: String?
        let simulate: String?
        let speed: Double
        let journalDir: String?
        let runtimeDir: String?
        let simulatedSwitch: Bool?
        do {
            configPath = try a.option("--config")
            simulate = try a.option("--simulate")
            speed = try a.double("--speed") ?? 1
            journalDir = try a.option("--journal-dir")
            runtimeDir = try a.option("--runtime-dir")
            switch try a.option("--switch") {
            case nil: simulatedSwitch = nil
            case "on": simulatedSwitch = true
            case "off": simulatedSwitch = false
            case let other?: throw Arguments.UsageError(description: "--switch takes on or off, not \(other)")
            }
            _ = try a.finish(maxPositionals: 0)
            guard speed > 0 else { throw Arguments.UsageError(description: "--speed must be more than 0") }
        } catch {
            Console.error("anchor-alert run: \(error)")
            return ExitCode.usage
        }
        // One malloc arena: the journal's writer thread would otherwise get its own, a few
        // hundred KB of memory for a thread that allocates a record at a time.
        Process.limitMallocArenas(1)
        // From here on the box's own lines never block the loop (a pipe nobody reads, journald).
        Console.loop = (ConsoleSink(.standardOutput), ConsoleSink(.standardError))
        var loaded = Configuration.load(path: configPath ?? Configuration.defaultPath, explicit: configPath != nil)
        if let journalDir { loaded.configuration.journalDirectory = journalDir }
        if let runtimeDir { loaded.configuration.runtimeDirectory = runtimeDir }
        let config = loaded.configuration
        for problem in loaded.problems { Console.error(problem) }

        let loop: EventLoop
        do {
            loop = try EventLoop(extraSignals: simulatedSwitch == nil ? [] : [Signal.user1, Signal.user2])
        } catch {
            Console.error("anchor-alert run: can't start the event loop: \(error)")
            return ExitCode.failure
        }
        let now = MonotonicClock.now()
        let wiring = Wiring(config: config, now: now)
        var sources: [Pollable] = []
        var faults: [Fault] = Configuration.fault(for: loaded.problems).map { [$0] } ?? []
        switch wiring.gps(simulate: simulate, speed: speed) {
        case .success(let gps): sources.append(gps)
        case .failure(let f):
            Console.error(f.message)
            faults.append(f)
        }
        let gpio = wiring.gpio(realSwitch: simulatedSwitch == nil)
        for p in gpio.problems {
            Console.error(p)
            faults.append(Fault(.config, p))
        }
        if let controls = gpio.controls { sources.append(controls) }
        if let buzzer = gpio.buzzer { sources.append(buzzer) }
        let ring = wiring.ring()
        let siren = wiring.siren()
        if let ring { sources.append(ring) }
        if let siren { sources.append(siren) }
        // The journal never refuses: a missing or damaged one is recovered or started afresh,
        // and that is a fault the box announces while it keeps watching.
        let opened = Journal.open(directory: config.journalDirectory, limits: config.journalLimits,
                                  fresh: .fresh(radius: config.watchSettings.radius),
                                  at: Stamp(monotonic: now, wall: WallTime(seconds: WallClock.seconds())))
        // The journal's writes and syncs run on its own thread; the loop polls its completions.
        let journal = JournalLog(journal: opened.journal, wall: WallClock.seconds)
        let box = Box(watch: Watch(settings: config.watchSettings), sources: sources,
                      annunciator: Annunciator(buzzer: gpio.buzzer, siren: siren, book: DesignedSounds()),
                      log: journal, wall: WallClock.seconds)
        journal.pace = { [unowned box] in box.trackPace }
        // Restored before anything else: a latched alarm rings again at once, before any fix.
        let memory = opened.recovery.memory
        box.restore(anchor: memory.anchor, radius: memory.radius, armed: memory.armed,
                    ringingEpisode: memory.ringingEpisode, lastEpisode: memory.lastEpisode, now: now)
        for note in opened.recovery.notes { Console.error("\(note)") }
        // The recap says the same from the boot record (Docs/journal-format.md).
        if opened.recovery.previousStop == .unclean {
            Console.out("Box restarted after a power cut or crash: the last run did not shut down")
        }
        if let line = ConsoleLog.restored(box.watch.alarm) { Console.out(line) }
        if let ring {
            box.observers.append(ring)
            // A decision answered keeps the ring at working brightness for a while: a refusal at
            // once, an accepted decision only when the journal has it (a failed save shows as
            // the journal fault instead).
            let previous = box.onActions
            box.onActions = { actions, now in
                previous?(actions, now)
                if actions.contains(where: { if case .refused = $0 { true } else { false } }) { ring.activity(at: now) }
            }
            let previousReceipt = box.onReceipt
            box.onReceipt = { receipt, saved, now in
                previousReceipt?(receipt, saved, now)
                if saved { ring.activity(at: now) }
            }
        }
        ConsoleLog.attach(to: box, settings: config.watchSettings)
        let runtime = BoxRuntime(box: box)
        runtime.extraSources.append(journal)
        if let sinks = Console.loop { runtime.extraSources += [sinks.out, sinks.error] }
        runtime.onReload = {
            let again = Configuration.load(path: configPath ?? Configuration.defaultPath, explicit: configPath != nil)
            if again.problems.isEmpty {
                Console.out("Configuration: read cleanly; changes take effect at the next start")
            }
            for p in again.problems { Console.error(p) }
            // A bad file is the configuration fault, as at a start: the skipper hears of it.
            if let fault = Configuration.fault(for: again.problems) {
                box.handle(.faultRaised(fault), now: MonotonicClock.now())
            }
        }
        Surfaces.attach(to: runtime, config: config, fitted: Surfaces.fitted(
            gpsd: simulate == nil, buzzer: gpio.buzzer != nil,
            switchAndButton: gpio.controls != nil && simulatedSwitch == nil, ring: ring != nil, siren: siren != nil))
        NetworkOutputs.attach(to: runtime, config: config, now: now)
        Console.out("Anchor Alert: watching (GPS: \(simulate.map { "simulated \($0)" } ?? "gpsd \(config.gpsdHost):\(config.gpsdPort)"))")
        for f in faults { box.handle(.faultRaised(f), now: now) }
        for e in opened.recovery.events { box.handle(e, now: now) }
        // The lines' own faults, and the switch's position at start (a decision).
        for e in (gpio.buzzer?.start(now: now) ?? []) + (gpio.controls?.start(now: now) ?? []) { box.handle(e, now: now) }
        runtime.onShutdown.append {
            gpio.buzzer?.shutdown()
            gpio.controls?.shutdown()
            siren?.stopAll()
            journal.close(now: MonotonicClock.now())
        }
        if let on = simulatedSwitch {
            runtime.simulatedSwitch = true
            // The switch's position at start is a decision, as with the real one.
            box.handle(.armSwitch(on: on), now: now)
        }
        // systemd (Type=notify, WatchdogSec=): ready once the loop is about to turn; pinged from
        // the loop itself at half the interval, so a stalled loop gets the service restarted.
        let systemd = Systemd()
        if let interval = systemd.watchdogInterval {
            runtime.watchdog = (interval, { _ = try? systemd.pingWatchdog() })
        }
        box.refresh(now: now)
        _ = try? systemd.ready(status: "Anchor Alert: watching")
        // `systemctl status` says what the box says, in its words, whenever that changes.
        let beforeStatus = box.onActions
        box.onActions = { [unowned box] actions, now in
            beforeStatus?(actions, now)
            guard actions.contains(where: { if case .verdictChanged = $0 { true } else if case .alarmChanged = $0 { true } else { false } })
            else { return }
            let s = box.watch.status(at: now)
            _ = try? systemd.status("\(Copy.verdict(s.verdict.kind)). \(Copy.alarm(s.alarm, now: now)). \(s.wontRing)")
        }
        loop.run(runtime)
        let seconds = (MonotonicClock.now() - now).seconds
        _ = try? systemd.stopping(status: "Anchor Alert: stopped")
        Console.out("Anchor Alert: stopped after \(Int(seconds)) s, \(box.readings) GPS readings, \(loop.wakeups) wakeups")
        return ExitCode.ok
    }
}
