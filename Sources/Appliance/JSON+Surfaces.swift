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
        return String(decoding: indentedBytes, as: UTF8.self)
    }

    /// The indented text's UTF-8 bytes, written straight into one array: the snapshot's whole
    /// writes. Built as Strings a piece (padding, keys, numbers), a snapshot cost about 640,000
    /// instructions; `JSONIndentedTests` holds the bytes equal to that way's text.
    var indentedBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        writeIndented(into: &out, depth: 0)
        return out
    }

    private func writeIndented(into out: inout [UInt8], depth: Int) {
        func pad(_ levels: Int) { out.appendIndent(levels) }
        switch self {
        case .array(let items) where !items.isEmpty:
            out.append(UInt8(ascii: "["))
            out.append(0x0A)
            for (i, item) in items.enumerated() {
                pad(depth + 1)
                item.writeIndented(into: &out, depth: depth + 1)
                if i + 1 < items.count { out.append(UInt8(ascii: ",")) }
                out.append(0x0A)
            }
            pad(depth)
            out.append(UInt8(ascii: "]"))
        case .object(let fields) where !fields.isEmpty:
            out.append(UInt8(ascii: "{"))
            out.append(0x0A)
            for (i, (k, v)) in fields.enumerated() {
                pad(depth + 1)
                JSONValue.quote(k, into: &out)
                out.append(UInt8(ascii: ":"))
                out.append(0x20)
                v.writeIndented(into: &out, depth: depth + 1)
                if i + 1 < fields.count { out.append(UInt8(ascii: ",")) }
                out.append(0x0A)
            }
            pad(depth)
            out.append(UInt8(ascii: "}"))
        case .array: out.append(contentsOf: [UInt8(ascii: "["), UInt8(ascii: "]")])
        case .object: out.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        case .null: out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let b): out.append(contentsOf: b ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
        case .number(let n): JSONValue.format(n, into: &out)
        case .string(let s): JSONValue.quote(s, into: &out)
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

    private mutating func pad(_ levels: Int) { out.appendIndent(levels) }

    /// `,\n`, the padding, `"k": ` as one append (measured: a byte at a time was most of a
    /// key's cost).
    private mutating func key(_ k: StaticString) {
        let comma = !first
        first = false
        let spaces = 2 * (depth + 1)
        k.withUTF8Buffer { name in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count + spaces + 6) { buf in
                var i = 0
                if comma {
                    buf[i] = UInt8(ascii: ",")
                    i += 1
                }
                buf[i] = UInt8(ascii: "\n")
                i += 1
                for _ in 0..<spaces {
                    buf[i] = 0x20
                    i += 1
                }
                buf[i] = UInt8(ascii: "\"")
                i += 1
                for b in name {
                    buf[i] = b
                    i += 1
                }
                buf[i] = UInt8(ascii: "\"")
                buf[i + 1] = UInt8(ascii: ":")
                buf[i + 2] = 0x20
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[0..<(i + 3)]))
            }
        }
    }

    mutating func number(_ k: StaticString, _ v: Double?) {
        guard let v else { return }
        key(k)
        JSONValue.format(v, into: &out)
    }

    mutating func int(_ k: StaticString, _ v: Int?) { number(k, v.map(Double.init)) }

    mutating func string(_ k: StaticString, _ v: String?) {
        guard let v else { return }
        key(k)
        JSONValue.quote(v, into: &out)
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

extension Array where Element == UInt8 {
    /// Two spaces a level: the indented text's padding, for the whole writes and the live ones.
    fileprivate mutating func appendIndent(_ levels: Int) {
        for _ in 0..<levels {
            append(0x20)
            append(0x20)
        }
    }
}
