#if canImport(Glibc)
import Glibc
#endif
import Recordings

/// Reads the configuration file: a small TOML subset (`[section]`, `key = value` with numbers,
/// "strings" and true/false, `#` comments). Every problem names its line and key; each bad line
/// is skipped and its key keeps the default.
extension Configuration {
    static func load(path: String, explicit: Bool = true) -> LoadedConfiguration {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: 1 << 20)
        } catch {
            // The default file may simply not exist on a fresh box: defaults, no fault.
            if !explicit, access(path, F_OK) != 0 {
                return LoadedConfiguration(configuration: Configuration(), problems: [], path: nil)
            }
            return LoadedConfiguration(configuration: Configuration(),
                                       problems: ["Configuration: can't read \(error); running on defaults"], path: path)
        }
        var loaded = parse(String(decoding: bytes, as: UTF8.self))
        loaded.path = loaded.problems.isEmpty ? nil : path
        return loaded
    }

    static func parse(_ text: String) -> LoadedConfiguration {
        var config = Configuration()
        var problems: [String] = []
        var section = ""
        var seen: Set<String> = []
        let keys = Dictionary(ConfigurationKey.all.map { ($0.fullName, $0) }, uniquingKeysWith: { a, _ in a })
        let sections = Set(ConfigurationKey.all.map(\.section))

        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let n = index + 1
            let line = stripComment(raw).trimmed
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else {
                    problems.append("Configuration: line \(n): a section header needs a closing ]")
                    section = "?"
                    continue
                }
                section = String(line.dropFirst().dropLast()).trimmed
                if !sections.contains(section) {
                    problems.append("Configuration: line \(n): unknown section [\(section)]")
                }
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                problems.append("Configuration: line \(n): expected key = value")
                continue
            }
            let name = String(line[..<eq]).trimmed
            let valueText = String(line[line.index(after: eq)...]).trimmed
            let full = section.isEmpty ? name : "\(section).\(name)"
            guard let key = keys[full] else {
                if sections.contains(section) || section.isEmpty {
                    problems.append("Configuration: line \(n): unknown key \(full)")
                }
                continue
            }
            if !seen.insert(full).inserted {
                problems.append("Configuration: line \(n): \(full) is set twice; the later one counts")
            }
            switch value(valueText, for: key) {
            case .success(let v): key.apply(&config, v)
            case .failure(let why): problems.append("Configuration: line \(n): \(full) \(why); using \(key.current(Configuration()))")
            }
        }
        if config.veryLongPress <= config.longPress {
            problems.append("Configuration: gpio.very_long_press must be longer than gpio.long_press; using the defaults")
            config.longPress = Configuration().longPress
            config.veryLongPress = Configuration().veryLongPress
        }
        // The watch's keys are checked together too: a combination that would switch the
        // evidence rule off keeps every evidence key at its default, and says why.
        let watchProblems = config.watchSettings.problems
        if !watchProblems.isEmpty {
            for why in watchProblems {
                problems.append("Configuration: \(why); the watch runs on its default evidence rule")
            }
            let radius = config.watchSettings.radius
            config.watchSettings = Configuration().watchSettings
            config.watchSettings.radius = radius
        }
        if !config.watchSettings.radiusRange.contains(config.watchSettings.radius.value) {
            config.watchSettings.radius = Configuration().watchSettings.radius
        }
        return LoadedConfiguration(configuration: config, problems: problems, path: nil)
    }

    private static func value(_ text: String, for key: ConfigurationKey) -> Result<ConfigValue, Why> {
        switch key.kind {
        case .number(let range, let unit):
            guard let d = Double(text), d.isFinite else { return .failure(Why("must be a number, not \(text)")) }
            guard range.contains(d) else {
                let u = unit.isEmpty ? "" : " \(unit)"
                return .failure(Why("must be from \(ConfigurationKey.format(range.lowerBound)) to \(ConfigurationKey.format(range.upperBound))\(u), not \(text)"))
            }
            return .success(.number(d))
        case .integer(let range):
            guard let i = Int(text) else { return .failure(Why("must be a whole number, not \(text)")) }
            guard range.contains(i) else { return .failure(Why("must be from \(range.lowerBound) to \(range.upperBound), not \(text)")) }
            return .success(.number(Double(i)))
        case .string(let allowed):
            guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else {
                return .failure(Why("must be a quoted string, not \(text)"))
            }
            let s = String(text.dropFirst().dropLast())
            if let allowed, !allowed.contains(s) {
                return .failure(Why("must be one of \(allowed.joined(separator: ", ")), not \"\(s)\""))
            }
            return .success(.string(s))
        case .bool:
            switch text {
            case "true": return .success(.bool(true))
            case "false": return .success(.bool(false))
            default: return .failure(Why("must be true or false, not \(text)"))
            }
        }
    }

    struct Why: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// Drops a `#` comment that is not inside a quoted string.
    private static func stripComment(_ line: Substring) -> Substring {
        var inString = false
        for i in line.indices {
            if line[i] == "\"" { inString.toggle() }
            if line[i] == "#" && !inString { return line[..<i] }
        }
        return line
    }
}

extension StringProtocol {
    var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
