import WatchCore

/// `anchor-alert check`: the Systems Check. One row per component, each a question whose good
/// answer is Yes. Rows only the running box can answer come from its snapshot (unknown when
/// it isn't answering); log space, power and the clock are checked here as well.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "Systems Check: is every part of the box working?"
    static let help = """
        Usage: anchor-alert check [--json] [--runtime-dir DIR] [--journal DIR] [--config FILE]

        One row per component: the box, the GPS reading, the mark, gpsd, the receiver, the
        buzzer, the arm switch, the button, the LED ring, the siren, the journal, its free
        space and its file system (a journal in memory or on FAT is not kept through a power
        cut), power (undervoltage), the clock, the watchdog, the configuration file, the
        network outputs. Each is a question whose good answer is Yes, with its status (Ok,
        Attention, Failing or Unknown) and, where you can apply one, what to do.

          --json               {"headline": ..., "rows": [{"component", "question", "status",
                               "answer", "remedy"}]}
        \(SurfaceOptions.help)
          --journal DIR        the journal whose free space is checked (journal.directory)

        Exit status: 0 nothing failing, 1 at least one row failing (including a box that is
        not answering or not running), 64 usage.
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        let options: SurfaceOptions
        let json: Bool
        do {
            options = try SurfaceOptions.take(from: &a)
            json = a.flag("--json")
            _ = try a.finish(maxPositionals: 0)
        } catch {
            Console.error("anchor-alert check: \(error)")
            return ExitCode.usage
        }
        let rows = self.rows(options: options, now: .now())
        if json {
            Console.out(JSON.object([("headline", .string(SystemsCheck.headline(rows))),
                                     ("rows", .array(rows.map(\.json)))]).text(indented: true))
        } else {
            for line in lines(rows) { Console.out(line) }
        }
        return rows.contains { $0.status == .failing } ? ExitCode.failure : ExitCode.ok
    }

    static func rows(options: SurfaceOptions, now: WallTime) -> [SystemsCheck.Row] {
        let local = SystemsProbe(journalDirectory: options.journalDirectory).rows()
        let reading = SnapshotReading.read(directory: options.runtimeDirectory, now: now)
        switch reading {
        case .current(let s):
            // The box's rows, with this process's fresher look at space and power; the box's
            // clock row (checked against GPS time) beats a local "can't tell".
            let mine = Dictionary(local.map { ($0.component, $0) }, uniquingKeysWith: { a, _ in a })
            return s.checks(now: now).map { row in
                guard let fresh = mine[row.component] else { return row }
                if row.component == .clock, fresh.status == .unknown { return row }
                return fresh
            }
        default:
            var withConfig = local
            withConfig.append(options.configurationRow)
            return SystemsCheck.rowsWithoutBox(boxAnswer(reading, now: now, directory: options.runtimeDirectory), local: withConfig)
        }
    }

    static func boxAnswer(_ r: SnapshotReading, now: WallTime, directory: String) -> String {
        switch r {
        case .current: "Yes"
        case .stale(let t): "No: last heard from at \(t.clockSeconds), \(WallTime.ago(now - t))"
        case .stopped(let t): "No: it stopped after \(t.clockSeconds), \(WallTime.ago(now - t))"
        case .missing: "No: it is not running (no status in \(directory))"
        case .unreadable(let why): "No: its status is unreadable (\(why))"
        }
    }

    static func lines(_ rows: [SystemsCheck.Row]) -> [String] {
        var out = [SystemsCheck.headline(rows), ""]
        let width = rows.map { $0.question.count }.max() ?? 0
        for r in rows {
            out.append("\(r.status.says.padded(10))\(r.question.padded(width + 2))\(r.answer)")
            if let remedy = r.remedy { out.append(String(repeating: " ", count: 10 + width + 2) + remedy) }
        }
        return out
    }
}
