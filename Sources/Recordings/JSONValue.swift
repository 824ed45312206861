/// A small JSON value with a strict parser and a deterministic writer, standard library only.
/// Shared by the gpsd JSON log reader, replay's output and the command-line surfaces.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys keep their order, so output is stable and readable.
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into h: inout Hasher) {
        switch self {
        case .null: h.combine(0)
        case .bool(let b): h.combine(b)
        case .number(let n): h.combine(n)
        case .string(let s): h.combine(s)
        case .array(let a): h.combine(a)
        case .object(let o): for (k, v) in o { h.combine(k); h.combine(v) }
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var double: Double? { if case .number(let n) = self { n } else { nil } }
    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var int: Int? { double.flatMap { $0.isFinite && $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil } }
}

// MARK: - Writing

extension JSONValue {
    /// Compact JSON on one line (JSON lines).
    public var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSONValue.format(n)
        case .string(let s): JSONValue.quote(s, into: &out)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(into: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, (k, v)) in o.enumerated() {
                if i > 0 { out += "," }
                JSONValue.quote(k, into: &out)
                out += ":"
                v.write(into: &out)
            }
            out += "}"
        }
    }

    /// Integers print without a fraction; others with up to 7 decimals (sub-centimeter for
    /// degrees), trailing zeros trimmed. Non-finite numbers are not JSON: they print as null.
    public static func format(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        var fallback = false
        let text = String(unsafeUninitializedCapacity: 32) { buf in
            guard let count = digits(n, into: buf) else {
                fallback = true
                return 0
            }
            return count
        }
        return fallback ? String(n) : text
    }

    /// `format(n)` appended to `out` as UTF-8, without a String between: the snapshot writes
    /// dozens of numbers a write.
    public static func format(_ n: Double, into out: inout [UInt8]) {
        guard n.isFinite else { return out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }  // null
        let done = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buf -> Bool in
            guard let count = digits(n, into: buf) else { return false }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[0..<count]))
            return true
        }
        if !done { out.append(contentsOf: String(n).utf8) }
    }

    /// A finite `n`'s digits as `format` writes them into `buf` (32 bytes), their count; nil when
    /// `format` falls back on Swift's own description (beyond 9e11 with a fraction).
    /// Digits written into the buffer: a snapshot has a few dozen numbers, and building each
    /// from small Strings (padding, trimming) cost more than all the rest.
    private static func digits(_ n: Double, into buf: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        var i = 0
        func put(_ whole: UInt64) {
            var count = 1
            var limit: UInt64 = 10
            while count < 20 && whole >= limit {
                count += 1
                limit &*= 10
            }
            var w = whole
            for k in stride(from: count - 1, through: 0, by: -1) {
                buf[i + k] = UInt8(ascii: "0") + UInt8(w % 10)
                w /= 10
            }
            i += count
        }
        if n == n.rounded(), abs(n) < 1e15 {
            let whole = Int64(n)
            if whole < 0 {
                buf[i] = UInt8(ascii: "-")
                i += 1
            }
            put(whole.magnitude)
            return i
        }
        let scaled = (abs(n) * 10_000_000.0).rounded()
        guard scaled < 9e18 else { return nil }
        let v = UInt64(scaled)
        var frac = v % 10_000_000
        if n < 0 && v != 0 {
            buf[i] = UInt8(ascii: "-")
            i += 1
        }
        put(v / 10_000_000)
        guard frac != 0 else { return i }
        buf[i] = UInt8(ascii: ".")
        i += 1
        var digits = 7
        while frac % 10 == 0 {
            frac /= 10
            digits -= 1
        }
        for k in stride(from: digits - 1, through: 0, by: -1) {
            buf[i + k] = UInt8(ascii: "0") + UInt8(frac % 10)
            frac /= 10
        }
        return i + digits
    }

    public static func quote(_ s: String, into out: inout String) {
        // Most strings need no escape: appended whole. The escapes are the bytes' (one rule).
        guard s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
            out += "\""
            out += s
            out += "\""
            return
        }
        var bytes: [UInt8] = []
        quote(s, into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// `quote(s)` appended to `out` as UTF-8: the same escapes, byte for byte (every byte of
    /// a multi-byte character is 0x80 or more and passes as it is).
    public static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        var s = s
        s.withUTF8 { bytes in
            guard bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
                return out.append(contentsOf: bytes)
            }
            for b in bytes {
                switch b {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
                default: out.append(b)
                }
            }
        }
        out.append(0x22)
    }
}

// MARK: - Parsing

public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "JSON: \(reason) at byte \(offset)" }
}

extension JSONValue {
    /// Parses one JSON document. Nesting deeper than `maxDepth` is refused, so hostile input
    /// can't exhaust the stack.
    public static func parse(_ text: String, maxDepth: Int = 32) throws(JSONError) -> JSONValue {
        var p = Parser(bytes: Array(text.utf8), maxDepth: maxDepth)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == p.bytes.count else { throw JSONError(offset: p.i, reason: "trailing characters") }
        return v
    }

    struct Parser {
        let bytes: [UInt8]
        let maxDepth: Int
        var i = 0

        init(bytes: [UInt8], maxDepth: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
        }

        func fail(_ reason: String) -> JSONError { JSONError(offset: i, reason: reason) }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func value(depth: Int) throws(JSONError) -> JSONValue {
            guard depth <= maxDepth else { throw fail("nesting too deep") }
            guard i < bytes.count else { throw fail("unexpected end") }
            switch bytes[i] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return .number(try number())
            }
        }

        mutating func literal(_ word: String) throws(JSONError) {
            for b in word.utf8 {
                guard i < bytes.count, bytes[i] == b else { throw fail("expected \(word)") }
                i += 1
            }
        }

        mutating func object(depth: Int) throws(JSONError) -> JSONValue {
            i += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                throw fail("expected ',' or '}'")
            }
        }

        mutating func array(depth: Int) throws(JSONError) -> JSONValue {
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw fail("expected ',' or ']'")
            }
        }

        mutating func string() throws(JSONError) -> String {
            i += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                if !raw.isEmpty {
                    scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                    raw.removeAll(keepingCapacity: true)
                }
            }
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    i += 1
                    flush()
                    return String(scalars)
                }
                if b < 0x20 { throw fail("control character in string") }
                if b == UInt8(ascii: "\\") {
                    flush()
                    i += 1
                    guard i < bytes.count else { break }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16)
                        else { throw fail("bad \\u escape") }
                        i += 4
                        scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                    default: throw fail("bad escape")
                    }
                    continue
                }
                raw.append(b)
                i += 1
            }
            throw fail("unterminated string")
        }

        mutating func number() throws(JSONError) -> Double {
            let start = i
            while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
            guard i > start, let d = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else {
                throw fail("bad number")
            }
            return d
        }
    }
}
