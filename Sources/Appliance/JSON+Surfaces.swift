import Recordings

/// The command-line surfaces use the one JSON type of the project (`Recordings.JSONValue`):
/// the snapshot, the control protocol and every `--json` output. What they add: building an
/// object that leaves out unknown (nil) fields, an indented form for files a person may read,
/// and parsing raw bytes from a socket.
typealias JSON = JSONValue

extension JSONValue {
    /// Builds an object, leaving out keys whose value is nil: absent means unknown.
    static func object(_ fields: [(String, JSONValue?)]) -> JSONValue {
        .object(fields.compactMap { k, v in v.map { (k, $0) } })
    }
    static func number(_ v: Double?) -> JSONValue? { v.map { .number($0) } }
    static func int(_ v: Int?) -> JSONValue? { v.map { .number(Double($0)) } }
    static func string(_ v: String?) -> JSONValue? { v.map { .string($0) } }

    var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }

    /// One line (`indented: false`, the socket protocol, where a newline ends a message) or
    /// two-space indented (the snapshot file).
    func text(indented: Bool) -> String {
        guard indented else { return text }
        var out = ""
        writeIndented(into: &out, depth: 0)
        return out
    }

    private func writeIndented(into out: inout String, depth: Int) {
        let pad = String(repeating: "  ", count: depth + 1)
        let close = String(repeating: "  ", count: depth)
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                item.writeIndented(into: &out, depth: depth + 1)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += close + "]"
        case .object(let fields) where !fields.isEmpty:
            out += "{\n"
            for (i, (k, v)) in fields.enumerated() {
                out += pad + JSONValue.string(k).text + ": "
                v.writeIndented(into: &out, depth: depth + 1)
                out += i + 1 < fields.count ? ",\n" : "\n"
            }
            out += close + "}"
        default:
            out += text
        }
    }

    /// Parses bytes read from a file or a socket; invalid UTF-8 becomes U+FFFD and then fails
    /// or passes as text, never crashes.
    static func parse(bytes: [UInt8]) throws -> JSONValue {
        try parse(String(decoding: bytes, as: UTF8.self))
    }
}

/// An object's fields written straight into the text's bytes as `JSONValue.text(indented: true)`
/// lays them out (two spaces a level, nil fields left out, an empty object as "{}"), without
/// building the `JSONValue` or a String a piece: for the snapshot's live writes, a few fields
/// after every reading while it matters (`StatusSnapshot.Live.write`; `StatusSnapshotTests`
/// holds the two texts equal). Measured: String appends were most of a live write's cost.
struct IndentedFields {
    var out: [UInt8]
    /// The depth of the object whose fields these are (0: the top level).
    let depth: Int
    private var first = true

    /// `first: false` when fields of this object were already written before these.
    init(into out: [UInt8], depth: Int, first: Bool = true) {
        self.out = out
        self.depth = depth
        self.first = first
    }

    private mutating func pad(_ levels: Int) {
        for _ in 0..<levels {
            out.append(0x20)
            out.append(0x20)
        }
    }

    private mutating func key(_ k: StaticString) {
        if !first { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\n"))
        first = false
        pad(depth + 1)
        out.append(UInt8(ascii: "\""))
        k.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
        out.append(0x20)
    }

    mutating func number(_ k: StaticString, _ v: Double?) {
        guard let v else { return }
        key(k)
        out.append(contentsOf: JSONValue.format(v).utf8)
    }

    mutating func int(_ k: StaticString, _ v: Int?) { number(k, v.map(Double.init)) }

    mutating func string(_ k: StaticString, _ v: String?) {
        guard let v else { return }
        key(k)
        if v.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            var quoted = ""
            JSONValue.quote(v, into: &quoted)
            out.append(contentsOf: quoted.utf8)
        } else {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: v.utf8)
            out.append(UInt8(ascii: "\""))
        }
    }

    mutating func object(_ k: StaticString, _ body: (inout IndentedFields) -> Void) {
        key(k)
        out.append(UInt8(ascii: "{"))
        var inner = IndentedFields(into: [], depth: depth + 1)
        swap(&inner.out, &out)
        body(&inner)
        swap(&inner.out, &out)
        if !inner.first {
            out.append(UInt8(ascii: "\n"))
            pad(depth + 1)
        }
        out.append(UInt8(ascii: "}"))
    }
}
