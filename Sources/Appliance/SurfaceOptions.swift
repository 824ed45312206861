/// The options every command that talks to the box, or reads its log, shares. Defaults come
/// from the configuration file (runtime.directory, journal.directory), which `--config` names.
struct SurfaceOptions {
    var configuration = Configuration()
    var runtimeDirectory: String
    var journalDirectory: String
    /// A history file of JSON lines (`HistoryLines`) instead of the journal.
    var historyFile: String?

    static let help = """
          --runtime-dir DIR    where the box's status and control socket are (runtime.directory,
                               default /run/anchor-alert)
          --config FILE        configuration file (default /etc/anchor-alert/anchor-alert.conf)
        """

    static let historyHelp = """
          --journal DIR        the box's journal (journal.directory, default /var/lib/anchor-alert)
          --history FILE       read history from a JSON lines file instead of the journal
        """

    static func take(from a: inout Arguments) throws -> SurfaceOptions {
        let configPath = try a.option("--config")
        let loaded = Configuration.load(path: configPath ?? Configuration.defaultPath, explicit: configPath != nil)
        // Not said here: a client command would repeat every complaint on every run. They are
        // said once, by `check` (its Configuration row), `config --check` and the service log.
        var o = SurfaceOptions(configuration: loaded.configuration,
                               runtimeDirectory: loaded.configuration.runtime.directory,
                               journalDirectory: loaded.configuration.journal.directory)
        o.configurationProblems = loaded.problems
        if let d = try a.option("--runtime-dir") { o.runtimeDirectory = d }
        if let d = try a.option("--journal") { o.journalDirectory = d }
        o.historyFile = try a.option("--history")
        return o
    }

    /// Problems this process found reading the configuration file (the box's own row, from
    /// its snapshot, wins while it answers: it says what the box loaded).
    var configurationProblems: [String] = []

    var configurationRow: SystemsCheck.Row {
        guard let first = configurationProblems.first else { return .init(.configuration, .ok, "Yes") }
        let more = configurationProblems.count > 1 ? " (and \(configurationProblems.count - 1) more)" : ""
        return .init(.configuration, .attention, "No: \(first)\(more)")
    }

    /// The log to read: the history file if given, else the journal.
    func history() throws -> any WatchHistory {
        if let historyFile { return HistoryLinesFile(path: historyFile) }
        return JournalHistory(directory: journalDirectory)
    }
}
