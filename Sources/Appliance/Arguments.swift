/// A small, strict argument reader: options take one value (`--radius 30` or `--radius=30`),
/// flags take none, anything unknown is an error that names it. Exit code 64 (usage) on error.
struct Arguments {
    private var rest: [String]
    private(set) var positionals: [String] = []

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(_ args: [String]) { self.rest = args }

    /// Takes `--name VALUE` or `--name=VALUE` out of the arguments, if present.
    mutating func option(_ name: String) throws -> String? {
        for (i, a) in rest.enumerated() {
            if a == name {
                guard i + 1 < rest.count else { throw UsageError(description: "\(name) needs a value") }
                let v = rest[i + 1]
                rest.removeSubrange(i...(i + 1))
                return v
            }
            if a.hasPrefix(name + "=") {
                rest.remove(at: i)
                return String(a.dropFirst(name.count + 1))
            }
        }
        return nil
    }

    mutating func double(_ name: String) throws -> Double? {
        guard let v = try option(name) else { return nil }
        guard let d = Double(v), d.isFinite else { throw UsageError(description: "\(name) needs a number, not \"\(v)\"") }
        return d
    }

    /// A length in meters: `30`, `30m`, `"30 m"`.
    mutating func meters(_ name: String) throws -> Double? {
        guard let v = try option(name) else { return nil }
        guard let d = Self.meters(v) else { throw UsageError(description: "\(name) needs meters, not \"\(v)\"") }
        return d
    }

    /// "30", "30m", "30 m" (one argument or two, as a shell splits it): meters, or nil.
    static func meters(_ text: String) -> Double? {
        var t = text.filter { $0 != " " }
        if t.hasSuffix("m") { t.removeLast() }
        guard let d = Double(t), d.isFinite else { return nil }
        return d
    }

    mutating func flag(_ name: String) -> Bool {
        guard let i = rest.firstIndex(of: name) else { return false }
        rest.remove(at: i)
        return true
    }

    /// Call last: what remains must be positionals; any leftover option is an error.
    mutating func finish(maxPositionals: Int) throws -> [String] {
        if let unknown = rest.first(where: { $0.hasPrefix("--") }) {
            throw UsageError(description: "unknown option \(unknown)")
        }
        guard rest.count <= maxPositionals else {
            throw UsageError(description: "unexpected argument \(rest[maxPositionals])")
        }
        positionals = rest
        return rest
    }
}
