import Posix
import WatchCore

/// `anchor-alert mark`: put the anchor here (at the drop, with the bow offset ahead of the
/// antenna when the heading is given), at a bearing and distance from here, where the boat was
/// some time ago (from the journal's track), or where the swing shows it.
enum MarkCommand: Command {
    static let name = "mark"
    static let summary = "Mark the anchor: here, at a bearing and distance, or where the boat was"
    static let help = """
        Usage: anchor-alert mark [--heading DEG | --bearing DEG --distance M | --ago DURATION
                                  | --from-swing] [options]

        Marks the anchor. The alarm must be off (slide the switch off first), unless the
        switch is already on ARM: then the alarm comes on with the mark.

        At the drop (the anchor touches bottom, the bow above it):
          (no option)          here: the mean of the box's last few steady GPS readings
          --heading DEG        here, moved boat.bow_offset meters ahead of the antenna on the
                               boat's heading DEG (degrees, from the compass): the bow roller
        Later, when the moment of the drop has passed:
          --ago DURATION       where the boat was DURATION ago (5m, 90s, 1h30m), from the
                               journal's track: the GPS reading nearest that time, within 30 s;
                               a number alone is seconds (--ago 10).
                               Use it when you know when the anchor went down.
          --bearing DEG        the anchor lies DEG degrees true from the boat...
          --distance M         ...M meters away (at most 1000). Use it when you can see or
                               judge where the anchor lies (the rode's direction and length).
          --from-swing         where the swing shows the anchor, once the box offers it
                               ("The anchor seems to lie ... of the mark", in status)
        \(SurfaceOptions.historyHelp)
        \(DecisionHelp.common)
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        return DecisionHelp.send(name, &a) { options, a in
            let bearing = try a.double("--bearing")
            let distance = try a.meters("--distance")
            let ago = try a.option("--ago")
            let heading = try a.double("--heading")
            let fromSwing = a.flag("--from-swing")
            _ = try a.finish(maxPositionals: 0)
            if fromSwing || heading != nil {
                guard bearing == nil, distance == nil, ago == nil, !(fromSwing && heading != nil) else {
                    throw Arguments.UsageError(description: "give one of --heading, --bearing with --distance, --ago, --from-swing")
                }
                if fromSwing { return .mark(.fromSwing) }
            }
            if let h = heading {
                guard (0..<360).contains(h) else { throw Arguments.UsageError(description: "--heading needs 0 to 359 degrees") }
                let offset = min(options.configuration.boat.bowOffset, options.configuration.boat.length)
                Console.out("Bow offset: the anchor \(FixedPoint.fixed(offset, 1)) m ahead of the antenna on \(StatusCommand.degrees(h))")
                return .mark(.offset(bearing: h, distance: Meters(offset)))
            }
            switch (bearing, distance, ago) {
            case (nil, nil, nil):
                return .mark(.here)
            case (let b?, let d?, nil):
                guard (0..<360).contains(b) else { throw Arguments.UsageError(description: "--bearing needs 0 to 359 degrees") }
                guard d >= 0 else { throw Arguments.UsageError(description: "--distance needs meters, 0 or more") }
                return .mark(.offset(bearing: b, distance: Meters(d)))
            case (nil, nil, let text?):
                guard let d = DurationText.parse(text, bareSeconds: true), d > .zero else {
                    throw Arguments.UsageError(description: "--ago needs a duration like 5m, 90s (or 90) or 1h30m, not \"\(text)\"")
                }
                let when = WallTime.now() - d
                guard let (position, at) = try options.history().position(at: when, tolerance: .seconds(30)) else {
                    Console.error("Can't mark: the journal has no GPS reading within 30 s of \(when.clockSeconds)")
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
