import Posix

/// Every command of the one binary. Add a line here for a new command.
enum CommandTable {
    static var all: [any Command.Type] { [
        ConfigCommand.self,
        DemoCommand.self,
        ReplayCommand.self,
        RunCommand.self,
        TestAlarmCommand.self,
        StatusCommand.self,
        CheckCommand.self,
        MarkCommand.self,
        RadiusCommand.self,
        SnoozeCommand.self,
        ReleaseCommand.self,
        RecapCommand.self,
        ExportCommand.self,
        WatchCommand.self,
        FleetCommand.self,
    ] }

    static func printUsage() {
        print("Usage: anchor-alert <command> [options]\n\nWith no command: the recap, what happened since you last looked.\n\nCommands:")
        for c in all { print("  \(c.name.padded(12))\(c.summary)") }
        print("\nRun anchor-alert <command> --help for a command's options; anchor-alert --version names the release.")
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}

let argv = Array(CommandLine.arguments.dropFirst())
if argv.first == "--version" || argv.first == "version" {
    print(Version.line)
    Process.exit(ExitCode.ok)
}
// Bare `anchor-alert` (or with only options, `anchor-alert --since 8h`) is the recap: what a
// skipper types in the morning to learn what happened in the night (Docs/install.md, step 7).
if argv.first.map({ $0.hasPrefix("-") && $0 != "--help" && $0 != "-h" }) ?? true {
    Process.exit(RecapCommand.run(argv))
}
guard let name = argv.first, name != "--help", name != "-h", name != "help" else {
    CommandTable.printUsage()
    Process.exit(ExitCode.ok)
}
guard let command = CommandTable.all.first(where: { $0.name == name }) else {
    Console.error("anchor-alert: unknown command \"\(name)\"")
    CommandTable.printUsage()
    Process.exit(ExitCode.usage)
}
let rest = Array(argv.dropFirst())
if rest.contains("--help") || rest.contains("-h") {
    print(command.help)
    Process.exit(ExitCode.ok)
}
Process.exit(command.run(rest))
