import Drivers
import Posix
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
        let configure = { Configuration.load(path: configPath ?? Configuration.defaultPath, explicit: configPath != nil) }
        var loaded = configure()
        if let journalDir { loaded.configuration.journal.directory = journalDir }
        if let runtimeDir { loaded.configuration.runtime.directory = runtimeDir }
        let config = loaded.configuration
        // Nothing that can sound the alarm is the worst state an armed box can be in: said first.
        let cantSound = ConfigCommand.cantSound(config)
        if let cantSound { Console.alarm(cantSound) }
        for problem in loaded.problems { Console.error(problem) }
        // The box's one reader of the clocks: the loop ticks it once a turn; the parts read its turn.
        let clock = LoopClock()
        let loop: EventLoop
        do {
            loop = try EventLoop(extraSignals: simulatedSwitch == nil ? [] : [Signal.user1, Signal.user2], clock: clock)
        } catch {
            Console.error("anchor-alert run: can't start the event loop: \(error)")
            return ExitCode.failure
        }
        let now = clock.tick().monotonic

        // The parts, in the order they come alive (Wiring.parts). Each device that can't be had
        // is a named fault the box announces while it watches with the rest.
        let wiring = Wiring(config: config, now: now, clock: clock)
        let devices = wiring.devices(simulate: simulate, speed: speed, realSwitch: simulatedSwitch == nil,
                                     problems: loaded.problems)
        let journal = wiring.journal()
        let systemd = Systemd()
        let parts = wiring.parts(devices, journal: journal.log, systemd: systemd, cantSound: cantSound)
        let box = wiring.box(devices, journal: journal.log, parts: parts)
        let runtime = BoxRuntime(box: box, reload: configure, simulatedSwitch: simulatedSwitch != nil)
        StartUp.begin(box, faults: devices.faults, recovery: journal.recovery, simulatedSwitch: simulatedSwitch, now: now) {
            // A journal that a power cut would lose is said once in the service log, at error
            // priority: the Systems Check keeps showing it (Docs/commands.md, check).
            let card = SystemsProbe(journalDirectory: config.journal.directory).journalCard()
            if card.status == .attention { Console.error("Journal: \(SystemsMonitor.consequence(card))") }
            Console.out("Anchor Alert: watching (GPS: \(simulate.map { "simulated \($0)" } ?? "gpsd \(config.gps.gpsd.host):\(config.gps.gpsd.port)"))")
        }
        box.refresh(now: now)
        _ = try? systemd.ready(status: cantSound ?? "Anchor Alert: watching")
        loop.run(runtime)
        let seconds = (MonotonicClock.now() - now).seconds
        _ = try? systemd.stopping(status: "Anchor Alert: stopped")
        Console.out("Anchor Alert: stopped after \(Int(seconds)) s, \(box.readings) GPS readings, \(loop.wakeups) wakeups")
        return ExitCode.ok
    }
}
