#if canImport(Glibc)
import Glibc
#endif

/// Every command of the one binary. Add a line here for a new command.
let allCommands: [any Command.Type] = [
]

func printUsage() {
    print("Usage: anchor-alert <command> [options]\n\nCommands:")
    for c in allCommands { print("  \(c.name.padding(12))\(c.summary)") }
    print("\nRun anchor-alert <command> --help for a command's options.")
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}

let argv = Array(CommandLine.arguments.dropFirst())
guard let name = argv.first, name != "--help", name != "-h", name != "help" else {
    printUsage()
    exit(argv.isEmpty ? ExitCode.usage : ExitCode.ok)
}
guard let command = allCommands.first(where: { $0.name == name }) else {
    fputs("anchor-alert: unknown command \"\(name)\"\n", stderr)
    printUsage()
    exit(ExitCode.usage)
}
let rest = Array(argv.dropFirst())
if rest.contains("--help") || rest.contains("-h") {
    print(command.help)
    exit(ExitCode.ok)
}
exit(command.run(rest))
