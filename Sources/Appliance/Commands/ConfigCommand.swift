/// `anchor-alert config`: the configuration's keys, defaults and a checker.
enum ConfigCommand: Command {
    static let name = "config"
    static let summary = "Print the default configuration, or check a configuration file"
    static let help = """
        Usage: anchor-alert config --defaults
               anchor-alert config --check FILE
               anchor-alert config --reference
               anchor-alert config --network-allow [--config FILE]

          --defaults     print a configuration file with every key at its default, each with
                         its meaning and range (the box's shipped file is this)
          --check FILE   read FILE as the box would and print every problem, naming its line
          --reference    print the key reference as Markdown (Docs/configuration.md)
          --network-allow  print the systemd drop-in that lets the box reach exactly the
                         configured gpsd host, MQTT broker and NMEA clients (Docs/network.md);
                         the unit's generator runs this at boot and daemon-reload

        A configuration with the buzzer and the siren both off is reported first: the box
        would watch but could not sound the alarm.

        Exit status: 0 clean, 1 problems found (the box would run on defaults for those keys)
        or nothing can sound the alarm, 64 usage.
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        do {
            let check = try a.option("--check")
            let defaults = a.flag("--defaults")
            if a.flag("--network-allow") {
                let path = try a.option("--config") ?? Configuration.defaultPath
                _ = try a.finish(maxPositionals: 0)
                let loaded = Configuration.load(path: path, explicit: false)
                print(NetworkAllow.dropIn(loaded.configuration, from: path), terminator: "")
                return ExitCode.ok
            }
            if a.flag("--reference") {
                _ = try a.finish(maxPositionals: 0)
                print(reference(), terminator: "")
                return ExitCode.ok
            }
            _ = try a.finish(maxPositionals: 0)
            if defaults == (check != nil) { throw Arguments.UsageError(description: "give --defaults or --check FILE") }
            if defaults {
                print(defaultFile(), terminator: "")
                return ExitCode.ok
            }
            var loaded = Configuration.load(path: check!)
            // What `run` refuses of the network sections (NetworkChecks), on this host.
            loaded.problems += NetworkChecks.problems(loaded.configuration, hostName: NetworkOutputs.hostName())
            let silent = cantSound(loaded.configuration)
            if let silent { print(silent) }
            if loaded.configuration.mqtt.enabled && loaded.configuration.mqtt.box.isEmpty {
                // A warning, not a problem: alone on its broker the host name is fine.
                print("Note: mqtt.box is empty, so this box is \"\(NetworkOutputs.hostName())\" on the broker; "
                      + "on a broker other boxes share, give each its own mqtt.box (two of one name: one leaves the broker)")
            }
            for p in loaded.problems { print(p) }
            if loaded.problems.isEmpty && silent == nil { print("Configuration: no problems") }
            return loaded.problems.isEmpty && silent == nil ? ExitCode.ok : ExitCode.failure
        } catch {
            Console.error("anchor-alert config: \(error)")
            return ExitCode.usage
        }
    }

    /// The warning for a configuration with nothing fitted that can sound the alarm (the
    /// status's "Won't ring" words), or nil when the buzzer or the siren is fitted.
    static func cantSound(_ c: Configuration) -> String? {
        guard !c.canSound else { return nil }
        return "Won't ring: nothing can sound the alarm: no buzzer is fitted and no siren is fitted"
    }

    /// Every key at its default, commented, grouped by section.
    static func defaultFile() -> String {
        var out = "# Anchor Alert configuration. Every key is shown at its default; uncomment to change.\n"
        out += "# A key set wrong keeps its default and raises the configuration fault; the box keeps watching.\n"
        let defaults = Configuration()
        var section = ""
        for key in ConfigurationKey.all {
            if key.section != section {
                section = key.section
                out += "\n[\(section)]\n"
            }
            out += "# \(key.meaning) (\(describe(key.kind)))\n"
            out += "# \(key.name) = \(key.current(defaults))\n"
        }
        return out
    }

    static func describe(_ kind: ConfigurationKey.Kind) -> String {
        switch kind {
        case .number(let r, let unit):
            "\(ConfigurationKey.format(r.lowerBound)) to \(ConfigurationKey.format(r.upperBound))\(unit.isEmpty ? "" : " \(unit)")"
        case .integer(let r): "\(r.lowerBound) to \(r.upperBound)"
        case .string(let allowed): allowed.map { $0.joined(separator: ", ") } ?? "text"
        case .bool: "true or false"
        }
    }

    static func reference() -> String {
        var out = """
            # Configuration

            One file, `\(Configuration.defaultPath)` by default (`--config FILE` to use another):
            `[section]` headers and `key = value` lines, with numbers, "quoted strings" and
            true/false; `#` starts a comment. `anchor-alert config --defaults` prints the file with
            every key at its default; `anchor-alert config --check FILE` reads a file as the box would.

            A key the file sets wrong (unknown, wrong type, out of range) keeps its default; the
            problem names its line and key (an unknown key the nearest known one), is printed at start
            and raises the configuration fault in the Systems Check: shown, never sounded, the box keeps
            watching. `check` and `config --check` say the problems; other commands don't repeat them.
            What the file said is echoed with control and invisible characters
            escaped (`\\u{1B}`) and cut when long; after 20 problems the rest are counted in one line.
            Keys after a section header with no closing `]` are reported as ignored. Lines may end in
            LF or CRLF, and a UTF-8 byte order mark is skipped. A bad file never stops the alarm.
            SIGHUP re-reads the file, reports its problems and raises the configuration fault as a
            start does; changes take effect at the next start.

            This page is generated from the box's own key table (`anchor-alert config --reference`);
            a test fails if a key is missing here.

            | key | default | range | meaning |
            |---|---|---|---|

            """
        let defaults = Configuration()
        for key in ConfigurationKey.all {
            out += "| `\(key.fullName)` | \(key.current(defaults)) | \(describe(key.kind)) | \(key.meaning) |\n"
        }
        return out
    }
}
