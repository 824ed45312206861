import Posix
import WatchCore

/// `anchor-alert watch`: the live view for a laptop at the chart table.
enum WatchCommand: Command {
    static let name = "watch"
    static let summary = "Live view: the ring and the status, redrawn as the box's status changes"
    static let help = """
        Usage: anchor-alert watch [--once] [--width N] [--runtime-dir DIR] [--config FILE]

        Draws the ring as the box shows it and the status lines (as anchor-alert status prints
        them), and redraws when the box's status changes. It reads the status file once a
        second, nothing more; Ctrl-C ends it. It only shows: it never marks, arms or snoozes.

        Colour when the terminal has it; plain text when TERM is dumb, NO_COLOR is set or the
        output is not a terminal (then each change is printed below the last). Lines break
        between words to fit the terminal's width.

          --once               draw once and exit (exit status as anchor-alert status)
          --width N            lay out for N columns (default: the terminal's width, or 80)
        \(SurfaceOptions.help)
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        let options: SurfaceOptions
        let once: Bool
        let width: Double?
        do {
            options = try SurfaceOptions.take(from: &a)
            once = a.flag("--once")
            width = try a.double("--width")
            _ = try a.finish(maxPositionals: 0)
            if let width, width < 20 || width > 1000 { throw Arguments.UsageError(description: "--width needs 20 to 1000 columns") }
        } catch {
            Console.error("anchor-alert watch: \(error)")
            return ExitCode.usage
        }
        let tty = FileDescriptor.standardOutput.isTerminal
        let colour = tty && Self.colourAllowed(term: env("TERM"), noColor: env("NO_COLOR"))
        // A dumb terminal can't go home and clear: like a pipe, it gets each change below the last.
        let redraw = tty && env("TERM") != "dumb"
        let ring = options.configuration.ringSettings
        var last: [String]?
        while true {
            let now = WallTime.now()
            let reading = SnapshotReading.read(directory: options.runtimeDirectory, now: now)
            let style = WatchView.Style(colour: colour, width: width.map { Int($0) } ?? terminalWidth() ?? 80)
            let frame = WatchView.frame(reading, now: now, style: style, ring: ring)
            if frame != last {
                let text = frame.joined(separator: "\n") + "\n"
                let out = redraw ? "\u{1B}[H\u{1B}[2J" + text : (last == nil ? "" : "\n") + text
                try? FileDescriptor.standardOutput.writeAll(out.utf8)
                last = frame
            }
            if once {
                switch reading {
                case .current: return StatusCommand.Exit.answering
                case .stale: return StatusCommand.Exit.notAnswering
                case .stopped, .missing: return StatusCommand.Exit.notRunning
                case .unreadable: return ExitCode.unreadable
                }
            }
            // A status changes at most a few times a second; once a second is enough to see it.
            MonotonicClock.sleep(seconds: 1)
        }
    }

    /// https://no-color.org: a NO_COLOR that is present and not empty turns colour off; so
    /// does a dumb terminal or none.
    static func colourAllowed(term: String?, noColor: String?) -> Bool {
        if let noColor, !noColor.isEmpty { return false }
        guard let term, !term.isEmpty, term != "dumb" else { return false }
        return true
    }

    static func env(_ name: String) -> String? { Process.environment(name) }

    static func terminalWidth() -> Int? {
        Terminal.size()?.columns ?? env("COLUMNS").flatMap { Int($0) }
    }
}
