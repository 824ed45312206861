import Recordings

/// What one line from gpsd said, as far as the box cares, read from the raw JSON line (libgps
/// is not used: its 3.22 dropped a DEVICE with `"activated":0`, a receiver that went away,
/// before the client saw it); a TPV is read in one pass (`GPSDFix.tpv`).
public enum GPSDMessage: Hashable, Sendable {
    case tpv(GPSDFix)
    /// A receiver appeared (`active`) or went away.
    case device(path: String, active: Bool)
    /// The receivers gpsd knows, sent once on connect.
    case devices(count: Int)
    case version(release: String)
    /// gpsd refused a request or complained.
    case error(message: String)
    /// Anything else (SKY, WATCH, GST, AIS...): proof that gpsd talks, nothing more.
    case other(className: String)
}

/// Field lookups over one compact JSON object line as gpsd writes it. Not a JSON parser: it finds
/// top-level-looking `"key":value` pairs by text, which is enough for the few string and number
/// fields read here and never trusts anything else.
public struct GPSDLine: Sendable {
    public let text: String

    public init(_ text: String) { self.text = text }

    /// The `class` of the object, if the line has one.
    public var className: String? { string("class") }

    /// The first string value of `key`.
    public func string(_ key: String) -> String? {
        guard let start = valueStart(key), text[start] == "\"" else { return nil }
        let from = text.index(after: start)
        guard let end = text[from...].firstIndex(of: "\"") else { return nil }
        return String(text[from..<end])
    }

    /// The first value of `key` if it is a number (not a string).
    public func number(_ key: String) -> Double? {
        guard let start = valueStart(key), text[start] != "\"" else { return nil }
        let digits = text[start...].prefix { "+-.0123456789eE".contains($0) }
        return Double(digits)
    }

    /// How many times `"key":` occurs.
    public func count(_ key: String) -> Int {
        var n = 0
        var from = text.utf8.startIndex
        while let r = Self.find("\"\(key)\":", in: text, from: from) {
            n += 1
            from = r
        }
        return n
    }

    private func valueStart(_ key: String) -> String.Index? {
        guard let after = Self.find("\"\(key)\":", in: text, from: text.utf8.startIndex) else { return nil }
        return text[after...].firstIndex { $0 != " " }
    }

    /// The index just past the first `needle` in `text` at or after `from`: a plain byte search
    /// (the few keys read here are ASCII), with no regex machinery on the gpsd path.
    static func find(_ needle: String, in text: String, from: String.Index) -> String.Index? {
        let hay = text.utf8
        let pin = Array(needle.utf8)
        guard let first = pin.first else { return from }
        var i = from
        while let start = hay[i...].firstIndex(of: first) {
            var j = start
            var k = 0
            while k < pin.count, j < hay.endIndex, hay[j] == pin[k] {
                j = hay.index(after: j)
                k += 1
            }
            if k == pin.count { return j }
            i = hay.index(after: start)
        }
        return nil
    }
}

extension GPSDMessage {
    /// Classifies one line as the box reads it from gpsd's socket (trailing CR and spaces
    /// trimmed, not empty): a TPV in one pass over its bytes, any other class by the class
    /// alone. nil: garbage. The live path (`GPSDConnection`) and the gpsd-stream fuzz target
    /// both call this, so the fuzzer reads exactly what the box reads.
    public static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> GPSDMessage? {
        if startsWithTPV(bytes) { return GPSDFix.tpv(bytes).map { .tpv($0) } }
        let raw = GPSDLine(String(decoding: bytes, as: UTF8.self))
        if raw.className == "TPV" { return GPSDFix.tpv(bytes).map { .tpv($0) } }
        // Not a TPV: the class alone decides, so the report closure is never called.
        return parse(raw, tpv: { GPSDFix(mode: 0) })
    }

    private static let tpvPrefix = Array("{\"class\":\"TPV\",".utf8)

    private static func startsWithTPV(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= tpvPrefix.count && bytes.prefix(tpvPrefix.count).elementsEqual(tpvPrefix)
    }

    /// Classifies a raw line; `tpv` supplies the fix read from the same line.
    public static func parse(_ line: GPSDLine, tpv: () -> GPSDFix) -> GPSDMessage? {
        guard let cls = line.className else { return nil }
        switch cls {
        case "TPV":
            return .tpv(tpv())
        case "DEVICE":
            // "activated" is a timestamp string while the device is active and the number 0
            // once it is gone.
            let gone = line.number("activated") == 0
            return .device(path: line.string("path") ?? "", active: !gone)
        case "DEVICES":
            return .devices(count: line.count("path"))
        case "VERSION":
            return .version(release: line.string("release") ?? "")
        case "ERROR":
            return .error(message: line.string("message") ?? "")
        default:
            return .other(className: cls)
        }
    }
}
