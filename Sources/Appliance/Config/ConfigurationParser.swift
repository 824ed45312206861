import Drivers
import Posix
import Recordings
import WatchCore

/// Reads the configuration file: a small TOML subset (`[section]`, `key = value` with numbers,
/// "strings" and true/false, `#` comments). Every problem names its line and key; each bad line
/// is skipped and its key keeps the default.
extension Configuration {
    static func load(path: String, explicit: Bool = true) -> LoadedConfiguration {
        let bytes: [UInt8]
        do {
            bytes = try Files.read(path, limit: 1 << 20)
        } catch {
            // The default file may simply not exist on a fresh box: defaults, no fault.
            if !explicit, !Files.exists(path) {
                return LoadedConfiguration(configuration: Configuration(), problems: [], path: nil)
            }
            return LoadedConfiguration(configuration: Configuration(),
                                       problems: ["Configuration: can't read \(error); running on defaults"], path: path)
        }
        var loaded = parse(String(decoding: bytes, as: UTF8.self))
        loaded.path = loaded.problems.isEmpty ? nil : path
        return loaded
    }

    /// The configuration fault for a file's problems, as a start and a SIGHUP raise it (nil when
    /// the file is clean). Shown, never sounded: every problem in the file leaves its keys on
    /// their defaults and the box watching, and a typo must not sound the fault tone all night on
    /// a box with no button to silence it.
    static func fault(for problems: [String]) -> Fault? {
        if problems.isEmpty { return nil }
        return Fault(.config, problems.count == 1
            ? problems[0] : "Configuration: \(problems.count) problems, running on defaults for those keys", pushes: false)
    }

    /// The known key a misspelt one most likely meant: the fewest single-character edits away,
    /// at most 2 (and fewer than a third of its length), the first in order on a tie.
    static func nearestKey(to name: String, in known: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased().utf8.prefix(64))
        let limit = min(2, (typed.count - 1) / 3)
        guard limit > 0 else { return nil }
        var best: (key: String, edits: Int)?
        for key in known.sorted() {
            let k = Array(key.utf8)
            guard abs(k.count - typed.count) <= limit else { continue }
            let d = editDistance(typed, k)
            if d <= limit, d < (best?.edits ?? Int.max) { best = (key, d) }
        }
        return best?.key
    }

    /// Levenshtein distance, insertions, deletions and substitutions each one edit.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var row = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                row[j + 1] = min(previous[j + 1] + 1, row[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }

    /// At most this many problems are listed; the rest are counted in one last line, so a file
    /// of garbage never floods the terminal or the log.
    static let problemsShown = 20

    static func parse(_ text: String) -> LoadedConfiguration {
        var config = Configuration()
        var problems: [String] = []
        var section = ""
        // The line of a section header with no closing ], while its keys are being skipped.
        var unclosed: Int?
        var seen: Set<String> = []
        let keys = Dictionary(ConfigurationKey.all.map { ($0.fullName, $0) }, uniquingKeysWith: { a, _ in a })
        let sections = Set(ConfigurationKey.all.map(\.section))

        // A byte order mark (some Windows editors write one) is not part of line 1.
        var body = Substring(text)
        if body.unicodeScalars.first == "\u{FEFF}" { body = Substring(body.unicodeScalars.dropFirst()) }
        // CRLF line ends are one Character in Swift ("\r\n"): split on both.
        let lines = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, raw) in lines.enumerated() {
            let n = index + 1
            let line = stripComment(raw).trimmed
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else {
                    problems.append("Configuration: line \(n): a section header needs a closing ], not \(escaped(line)); the keys after it are ignored up to the next section")
                    section = "?"
                    unclosed = n
                    continue
                }
                unclosed = nil
                section = String(line.dropFirst().dropLast()).trimmed
                if !sections.contains(section) {
                    problems.append("Configuration: line \(n): unknown section [\(escaped(section))], its keys are ignored")
                }
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                problems.append("Configuration: line \(n): expected key = value, not \(escaped(line))")
                continue
            }
            let name = String(line[..<eq]).trimmed
            let valueText = String(line[line.index(after: eq)...]).trimmed
            if let header = unclosed {
                problems.append("Configuration: line \(n): \(escaped(name)) is ignored: the section header on line \(header) has no closing ]")
                continue
            }
            let full = section.isEmpty ? name : "\(section).\(name)"
            guard let key = keys[full] else {
                if sections.contains(section) || section.isEmpty {
                    let near = nearestKey(to: full, in: keys.keys).map { ", did you mean \($0)?" } ?? ""
                    problems.append("Configuration: line \(n): unknown key \(escaped(full))\(near)")
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
        if problems.count > problemsShown {
            let more = problems.count - problemsShown
            problems = Array(problems.prefix(problemsShown))
            problems.append("Configuration: \(more) more problems not shown; run anchor-alert config --check after mending these")
        }
        if config.gpio.veryLongPress <= config.gpio.longPress {
            problems.append("Configuration: gpio.very_long_press must be longer than gpio.long_press; using the defaults")
            config.gpio.longPress = GPIOSection().longPress
            config.gpio.veryLongPress = GPIOSection().veryLongPress
        }
        // The lines as the box will read them: a value that names no line is the file's problem
        // like any other, said with the rest and shown, never sounded (the line keeps its default).
        problems += config.gpio.settings().problems
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
            guard let d = Double(text), d.isFinite else { return .failure(Why("must be a number, not \(escaped(text))")) }
            guard range.contains(d) else {
                let u = unit.isEmpty ? "" : " \(unit)"
                return .failure(Why("must be from \(ConfigurationKey.format(range.lowerBound)) to \(ConfigurationKey.format(range.upperBound))\(u), not \(escaped(text))"))
            }
            return .success(.number(d))
        case .integer(let range):
            guard let i = Int(text) else { return .failure(Why("must be a whole number, not \(escaped(text))")) }
            guard range.contains(i) else { return .failure(Why("must be from \(range.lowerBound) to \(range.upperBound), not \(escaped(text))")) }
            return .success(.number(Double(i)))
        case .string(let allowed):
            guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else {
                return .failure(Why("must be a quoted string, not \(escaped(text))"))
            }
            let s = String(text.dropFirst().dropLast())
            if let allowed, !allowed.contains(s) {
                return .failure(Why("must be one of \(allowed.joined(separator: ", ")), not \"\(escaped(s))\""))
            }
            return .success(.string(s))
        case .bool:
            switch text {
            case "true": return .success(.bool(true))
            case "false": return .success(.bool(false))
            default: return .failure(Why("must be true or false, not \(escaped(text))"))
            }
        }
    }

    struct Why: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// What the file said, safe to print: control characters, invisible and direction-changing
    /// characters and bytes that were not UTF-8 are written as `\u{1B}`-style escapes, and a
    /// long value is cut, so garbage in a file never reaches a terminal raw.
    static func escaped(_ text: String, limit: Int = 60) -> String {
        var out = ""
        var count = 0
        for u in text.unicodeScalars {
            if count == limit { return out + "..." }
            count += 1
            let v = u.value
            let hidden = v < 0x20 || (0x7F...0x9F).contains(v) || (0x200B...0x200F).contains(v)
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0xFEFF || v == 0xFFFD
            out += hidden ? "\\u{\(String(v, radix: 16, uppercase: true))}" : String(u)
        }
        return out
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
