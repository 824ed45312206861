import WatchCore

/// `anchor-alert release`: forget the anchor (the alarm must be off).
enum ReleaseCommand: Command {
    static let name = "release"
    static let summary = "Release the anchor mark"
    static let help = """
        Usage: anchor-alert release [options]

        Forgets the anchor: the watch has nothing to guard until the next mark. The alarm
        must be off (slide the switch off first).
        \(DecisionHelp.common)
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        return DecisionHelp.send(name, &a) { _, a in
            _ = try a.finish(maxPositionals: 0)
            return .release
        }
    }
}
