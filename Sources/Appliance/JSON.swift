/// A JSON value, small and ordered: the snapshot, the control protocol and every `--json`
/// output are written and read through this one type, so field order is stable (diffable,
/// golden-testable) and no Foundation is needed.
enum JSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    /// Keys in the order written; lookups take the first match.
    case object([(String, JSON)])

    static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    func hash(into h: inout Hasher) {
        switch self {
        case .null: h.combine(0)
        case .bool(let b): h.combine(b)
        case .number(let d): h.combine(d)
        case .string(let s): h.combine(s)
        case .array(let a): h.combine(a)
        case .object(let o):
            for (k, v) in o {
                h.combine(k)
                h.combine(v)
            }
        }
    }

    subscript(key: String) -> JSON? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var double: Double? { if case .number(let d) = self { d } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var array: [JSON]? { if case .array(let a) = self { a } else { nil } }
    var isNull: Bool { self == .null }

    /// An integer only when the number is whole and in range: "3.5" is not an episode.
    var int: Int? {
        guard case .number(let d) = self, d.isFinite, d.rounded() == d, abs(d) < 9e15 else { return nil }
        return Int(d)
    }
}

extension JSON {
    /// Builds an object, leaving out keys whose value is nil: absent means unknown.
    static func object(_ fields: [(String, JSON?)]) -> JSON {
        .object(fields.compactMap { k, v in v.map { (k, $0) } })
    }
    static func number(_ v: Double?) -> JSON? { v.map { .number($0) } }
    static func int(_ v: Int?) -> JSON? { v.map { .number(Double($0)) } }
    static func string(_ v: String?) -> JSON? { v.map { .string($0) } }
}
