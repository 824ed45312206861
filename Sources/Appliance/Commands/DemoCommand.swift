import Drivers
import Posix
import WatchCore

/// `anchor-alert demo`: the box on a simulated boat in accelerated time, drawn in the terminal.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "Watch the box on a simulated boat, in accelerated time"
    static let help = """
        Usage: anchor-alert demo [--speed N] [--plain]

        The real watch on a scripted night: anchoring, a calm swing, a stray reading that moves
        nothing, a GPS outage (can't judge, then the fault), a real drag, the alarm, a snooze,
        the switch off. About a minute at the default speed; it ends by itself.

          --speed N   script seconds per real second (default 12; 0 runs without pausing)
          --plain     no screen drawing: one line per event (also when not on a terminal)
        """

    final class DemoBuzzer: BuzzerLine {
        var screen: DemoScreen?
        func set(on: Bool) { screen?.buzzer(on) }
    }

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        let speed: Double
        let plain: Bool
        do {
            speed = try a.double("--speed") ?? 12
            plain = a.flag("--plain")
            _ = try a.finish(maxPositionals: 0)
            guard speed >= 0 else { throw Arguments.UsageError(description: "--speed must be 0 or more") }
        } catch {
            Console.error("anchor-alert demo: \(error)")
            return ExitCode.usage
        }
        let tty = !plain && FileDescriptor.standardOutput.isTerminal
        let script = BoatScript.demo
        var ringSettings = Configuration().ringSettings
        ringSettings.snoozeLength = .seconds(300)
        let screen = DemoScreen(tty: tty, speed: speed, ring: ringSettings)
        let buzzer = DemoBuzzer()
        buzzer.screen = screen
        var settings = WatchSettings()
        settings.snooze = .seconds(300)
        let gps = SimulatedGPS(.script(script), start: .zero)
        let box = Box(watch: Watch(settings: settings), sources: [gps],
                      buzzerAndSiren: BuzzerAndSiren(buzzer: buzzer, siren: nil, book: DesignedSounds()), log: nil, wall: { 0 },
                      parts: [screen, DemoNarration(screen: screen, settings: settings)])
        var skipper = DemoSkipper()
        var now = Instant.zero
        let end = Instant(seconds: script.end)
        box.refresh(now: now)
        while now < end {
            let t = now.seconds
            screen.clock(t)
            for move in skipper.moves(at: t, alarm: box.watch.alarm) {
                switch move {
                case .note(let line): screen.say(line)
                case .input(let event, let line):
                    screen.say(line)
                    box.handle(event, now: now)
                }
            }
            if let done = skipper.finishedAt, t >= done { break }
            // The next thing that happens: the box's own deadlines, the skipper, a redraw.
            var next = box.nextDeadline(now: now) ?? end
            if let m = skipper.nextMove(after: t) { next = min(next, Instant(seconds: m)) }
            next = min(next, Instant(seconds: (t + 1).rounded(.down)), end)
            if next <= now { next = now + .milliseconds(1) }
            if speed > 0 { pause((next - now).seconds / speed) }
            now = next
            screen.clock(now.seconds)
            box.serve([], now: now)
        }
        box.buzzerAndSiren.silence()
        screen.clock(now.seconds)
        screen.say("The demo is over: the same watch runs on the Pi, with gpsd, the buzzer and the ring")
        box.refresh(now: now)
        return ExitCode.ok
    }

    /// The demo paces itself for a human; the box's own loop never sleeps.
    static func pause(_ seconds: Double) {
        guard seconds > 0 else { return }
        MonotonicClock.sleep(seconds: min(seconds, 10))
    }
}

/// The demo's log: each action in the box's words on the screen; an accepted decision lights
/// the ring as the box's does.
final class DemoNarration: Part, BoxListener {
    let screen: DemoScreen
    let settings: WatchSettings

    init(screen: DemoScreen, settings: WatchSettings) {
        self.screen = screen
        self.settings = settings
    }

    var hearing: BoxListener? { self }

    func heard(_ actions: [Action], box: Box, now: Instant) {
        for action in actions {
            if let line = Narration.line(action, now: now, settings: settings) { screen.say(line) }
            if case .accepted = action { screen.activity(at: now) }
        }
    }
}
