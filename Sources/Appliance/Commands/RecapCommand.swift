import WatchCore
/// `anchor-alert recap`: since you last looked. Alarms and faults first, then watches that
/// ended, then notes; quiet stretches left out; nothing happening said in one line.
enum RecapCommand: Command {
    static let name = "recap"
    static let summary = "What happened since you last looked"
    static let help = """
        Usage: anchor-alert recap [--since TIME] [--ack] [--json] [options]

        Since you last looked (the last recap --ack; or the last 24 hours): alarms and faults
        first, then watches that ended, then notes (anchor marked or released, alert radius,
        restarts, checks that came back). Quiet stretches are left out; when nothing happened
        it says so in one line.

          --since TIME         from TIME instead: 03:10, "2026-11-30 03:10", an ISO 8601 UTC
                               time, or a duration back from now (8h, 90m)
          --ack                mark everything shown as looked at
          --state-dir DIR      where the mark is kept (default: the journal's directory)
          --json               {"since", "until", "nothing", "alarms_and_faults": [{"at",
                               "says"}], "watches": [...], "notes": [...]}
        \(SurfaceOptions.historyHelp)
          --config FILE        configuration file

        Exit status: 0 shown, 1 the log can't be read, 64 usage.
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        let options: SurfaceOptions
        let json: Bool
        let ack: Bool
        let stateDirectory: String
        var since: WallTime?
        let now = WallTime.now()
        do {
            options = try SurfaceOptions.take(from: &a)
            json = a.flag("--json")
            ack = a.flag("--ack")
            stateDirectory = try a.option("--state-dir") ?? options.journalDirectory
            if let text = try a.option("--since") {
                guard let t = WallTime.parse(text, now: now) else {
                    throw Arguments.UsageError(description: "--since needs a time like 03:10 or a duration like 8h, not \"\(text)\"")
                }
                since = t
            }
            _ = try a.finish(maxPositionals: 0)
        } catch {
            Console.error("anchor-alert recap: \(error)")
            return ExitCode.usage
        }
        let from = since ?? RecapMark.read(stateDirectory: stateDirectory) ?? now - .seconds(24 * 3600)
        var recap: Recap
        do {
            recap = Recap.build(try options.history().entries(), since: from, now: now)
        } catch {
            Console.error("\(error)")
            return ExitCode.failure
        }
        // The radius advice is the running box's to give (Docs/verdict.md): a note while it stands.
        if case .current(let s) = SnapshotReading.read(directory: options.runtimeDirectory, now: now),
           let advice = s.radiusAdvice {
            recap.note(advice, at: s.writtenAt)
        }
        if json {
            Console.out(recap.json.text(indented: true))
        } else {
            for line in recap.lines() { Console.out(line) }
        }
        if ack {
            // The newest entry shown, a hair past it; if nothing was written since the mark,
            // keep it where it was rather than moving it to now (the log may lag the clock).
            let mark = recap.lastEntry.map { $0 + .milliseconds(1) } ?? from
            do {
                try RecapMark.write(max(mark, from), stateDirectory: stateDirectory)
                if !json { Console.out("Marked as looked at") }
            } catch {
                Console.error("Can't mark the recap as looked at: \(error)")
                return ExitCode.failure
            }
        }
        return ExitCode.ok
    }
}
