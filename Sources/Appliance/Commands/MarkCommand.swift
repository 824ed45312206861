import WatchCore
import Journal

/// `anchor-alert mark`: put the anchor here, at a bearing and distance from here, or where the
/// boat was some time ago (from the log's track).
enum MarkCommand: Command {
    static let name = "mark"
    static let summary = "Mark the anchor: here, at a bearing and distance, or where the boat was"
    static let help = """
        Usage: anchor-alert mark [--bearing DEG --distance M | --ago DURATION] [options]

        Marks the anchor. The alarm must be off (slide the switch off first).

          (no option)          here: the mean of the box's last few steady GPS readings
          --bearing DEG        the anchor lies DEG degrees true from the boat...
          --distance M         ...M meters away (at most 1000)
          --ago DURATION       where the boat was DURATION ago (5m, 90s, 1h30m), from the
                               log's track: the GPS reading nearest that time, within 30 s
        \(SurfaceOptions.historyHelp)
        \(DecisionHelp.common)
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        return DecisionHelp.send(name, &a) { options, a in
            let bearing = try a.double("--bearing")
            let distance = try a.double("--distance")
            let ago = try a.option("--ago")
            _ = try a.finish(maxPositionals: 0)
            switch (bearing, distance, ago) {
            case (nil, nil, nil):
                return .mark(.here)
            case (let b?, let d?, nil):
                guard (0..<360).contains(b) else { throw Arguments.UsageError(description: "--bearing needs 0 to 359 degrees") }
                guard d >= 0 else { throw Arguments.UsageError(description: "--distance needs meters, 0 or more") }
                return .mark(.offset(bearing: b, distance: Meters(d)))
            case (nil, nil, let text?):
                guard let d = DurationText.parse(text), d > .zero else {
                    throw Arguments.UsageError(description: "--ago needs a duration like 5m, 90s or 1h30m, not \"\(text)\"")
                }
                let when = WallTime.now() - d
                guard let (position, at) = try options.history().position(at: when, tolerance: .seconds(30)) else {
                    Console.error("Can't mark: the log has no GPS reading within 30 s of \(when.clockSeconds)")
                    throw EarlyExit(code: ControlClient.Exit.refused)
                }
                Console.out("Where the boat was at \(at.clockSeconds): \(position)")
                return .mark(.at(position))
            default:
                throw Arguments.UsageError(description: "give --bearing with --distance, or --ago, or neither")
            }
        }
    }
}
