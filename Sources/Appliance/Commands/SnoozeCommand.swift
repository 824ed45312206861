import WatchCore

/// `anchor-alert snooze`: silence the ringing alarm, naming the alarm it answers.
enum SnoozeCommand: Command {
    static let name = "snooze"
    static let summary = "Snooze the ringing alarm, or a sounding fault"
    static let help = """
        Usage: anchor-alert snooze [--episode N] [options]

        Snoozes the alarm that is ringing now. The request names the alarm it answers, read
        from the box's status, so an alarm already answered (by the button, or by someone
        else) is not answered twice: the box refuses it. The alarm rings again when the snooze
        ends unless the boat is holding.

        With no alarm ringing, a fault that sounds is snoozed instead: its sound stops for the
        snooze's length (watch.snooze), the fault stays shown, and it sounds again if it is
        still there. The receipt says so.

          --episode N          answer alarm N instead of the one the status names
        \(DecisionHelp.common)
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        return DecisionHelp.send(name, &a) { options, a in
            let given = try a.option("--episode")
            _ = try a.finish(maxPositionals: 0)
            if let given {
                guard let e = Int(given), e > 0 else { throw Arguments.UsageError(description: "--episode needs a whole number") }
                return .snooze(episode: e)
            }
            switch SnapshotReading.read(directory: options.runtimeDirectory) {
            case .current(let s):
                guard let episode = s.alarm.episode else {
                    // No alarm rings, but a fault sounds: the snooze silences the fault sound.
                    if s.faultSounding { return .snooze(episode: 0) }
                    Console.error(Words.refusal(.notRinging))
                    throw EarlyExit(code: ControlClient.Exit.refused)
                }
                return .snooze(episode: episode)
            case let other:
                for line in StatusCommand.lines(other, now: .now(), directory: options.runtimeDirectory) { Console.error(line) }
                switch other {
                case .stale: throw EarlyExit(code: ControlClient.Exit.noAnswer)
                case .unreadable: throw EarlyExit(code: ExitCode.unreadable)
                default: throw EarlyExit(code: ControlClient.Exit.notRunning)
                }
            }
        }
    }
}
