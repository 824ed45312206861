/// One `anchor-alert <command>`. Each lives in Commands/<Name>Command.swift and is listed in
/// `allCommands` (main.swift). Exit codes: 0 ok, 1 the command's own failure (documented per
/// command), 2 unreadable input, 64 usage.
protocol Command {
    static var name: String { get }
    /// One line for `anchor-alert --help`.
    static var summary: String { get }
    /// The full `--help` text.
    static var help: String { get }
    static func run(_ args: [String]) -> Int32
}

enum ExitCode {
    static let ok: Int32 = 0
    static let failure: Int32 = 1
    static let unreadable: Int32 = 2
    static let usage: Int32 = 64
}
