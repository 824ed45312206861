/// NMEA 0183 (IEC 61162-1) sentence framing: `$` + address + `,` fields + `*` + checksum +
/// CR LF, at most 82 characters in all. Pure: no I/O, no Foundation.
public enum Sentence {
    /// IEC 61162-1's limit for one sentence, from `$` to the line feed.
    public static let maxLength = 82

    /// XOR of every byte between `$` (or `!`) and `*`.
    public static func checksum<S: Sequence>(_ body: S) -> UInt8 where S.Element == UInt8 {
        body.reduce(0, ^)
    }

    /// One framed sentence, `address` being talker + formatter ("IIALF").
    public static func encode(_ address: String, _ fields: [String]) -> String {
        let body = ([address] + fields).joined(separator: ",")
        return "$" + body + "*" + hex(checksum(body.utf8)) + "\r\n"
    }

    /// The room left for a last text field after `fields` (so the sentence stays within 82).
    public static func room(_ address: String, before fields: [String]) -> Int {
        // "$" + address + "," per field + "," before the text + "*hh\r\n"
        let used = 1 + address.utf8.count + fields.reduce(0) { $0 + 1 + $1.utf8.count } + 1 + 5
        return max(0, maxLength - used)
    }

    /// Text for a text field: printable ASCII only; a comma becomes ";" (a plotter that
    /// ignores the `^` escapes would read `^2C` as text, or split the field); the other
    /// characters the standard reserves (`$ * ! \ ^ ~` and delete) are sent as `^` and two hex
    /// digits, as IEC 61162-1 asks; anything else outside printable ASCII becomes `?`. Cut to
    /// `limit` characters at a space, never inside a word or an escape.
    public static func text(_ s: String, limit: Int) -> String {
        var out = ""
        var count = 0
        var lastSpace: String.Index?
        for scalar in s.unicodeScalars {
            var piece: String
            switch scalar.value {
            case 0x2C: piece = ";"
            case 0x24, 0x2A, 0x21, 0x5C, 0x5E, 0x7E, 0x7F: piece = "^" + hex(UInt8(scalar.value))
            case 0x20...0x7E: piece = String(Character(scalar))
            case 0x2014, 0x2013: piece = "-"
            default: piece = "?"
            }
            if count + piece.utf8.count > limit {
                // Whole words only: back to the last space, and no ";" or space left dangling.
                if scalar.value != 0x20, let lastSpace { out = String(out[..<lastSpace]) }
                while let last = out.last, last == " " || last == ";" { out.removeLast() }
                return out
            }
            if scalar.value == 0x20 { lastSpace = out.endIndex }
            out += piece
            count += piece.utf8.count
        }
        return out
    }

    /// Hours, minutes and seconds of the UTC day, `hhmmss.ss`, from seconds since 1970.
    public static func time(wall: Double) -> String {
        guard wall.isFinite, wall >= 0 else { return "" }
        let centis = Int64((wall * 100).rounded(.down)) % (86_400 * 100)
        let h = centis / 360_000, m = centis / 6_000 % 60, s = centis / 100 % 60, c = centis % 100
        return two(h) + two(m) + two(s) + "." + two(c)
    }

    static func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
    }

    /// A sentence read from a peer, its checksum verified.
    public struct Parsed: Hashable, Sendable {
        public var talker: String
        public var formatter: String
        public var fields: [String]
    }

    public enum ParseError: Error, Hashable, Sendable {
        case notASentence
        case noChecksum
        case badChecksum
        case tooLong
    }

    /// Parses one line (without its CR LF). A checksum is required: the box acts on what it
    /// reads, and a sentence without one can't be told from line noise.
    public static func parse(_ line: [UInt8]) -> Result<Parsed, ParseError> {
        var bytes = line[...]
        while let l = bytes.last, l == 0x0D || l == 0x0A || l == 0x20 { bytes.removeLast() }
        guard bytes.count <= maxLength else { return .failure(.tooLong) }
        guard let first = bytes.first, first == 0x24 || first == 0x21 else { return .failure(.notASentence) }
        guard let star = bytes.lastIndex(of: 0x2A) else { return .failure(.noChecksum) }
        let body = bytes[bytes.index(after: bytes.startIndex)..<star]
        let sum = bytes[bytes.index(after: star)...]
        guard sum.count == 2, let given = UInt8(String(decoding: sum, as: UTF8.self), radix: 16) else {
            return .failure(.noChecksum)
        }
        guard checksum(body) == given else { return .failure(.badChecksum) }
        guard body.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return .failure(.notASentence) }
        let parts = body.split(separator: 0x2C, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let address = parts[0]
        guard address.utf8.count == 5, address.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) })
        else { return .failure(.notASentence) }
        return .success(Parsed(talker: String(address.prefix(2)), formatter: String(address.suffix(3)),
                               fields: Array(parts.dropFirst())))
    }
}
