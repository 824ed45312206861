import WatchCore

/// One NMEA 0183 sentence, checksum verified, split into its fields.
public struct NMEASentence: Hashable, Sendable {
    /// The talker ("GP", "GN", "EC", ...) and the type ("GGA", "RMC", "GLL", ...).
    public var talker: String
    public var type: String
    /// Fields after the address, without the checksum.
    public var fields: [Substring]

    public enum Failure: String, Error, Hashable, Sendable {
        case notASentence = "not an NMEA sentence"
        case noChecksum = "no checksum"
        case badChecksum = "checksum mismatch"
        case malformed = "malformed"
    }

    /// Parses `$GPGGA,...*hh`. A sentence without a checksum is refused: a log line can't prove
    /// it arrived whole without one.
    public static func parse(_ line: Substring) -> Result<NMEASentence, Failure> {
        var body = line
        while let last = body.last, last == "\r" || last == "\n" || last == " " { body.removeLast() }
        guard let first = body.first, first == "$" || first == "!" else { return .failure(.notASentence) }
        guard let star = body.lastIndex(of: "*") else { return .failure(.noChecksum) }
        let hex = body[body.index(after: star)...]
        guard hex.count == 2, let expected = UInt8(hex, radix: 16) else { return .failure(.badChecksum) }
        let payload = body[body.index(after: body.startIndex)..<star]
        var sum: UInt8 = 0
        for b in payload.utf8 { sum ^= b }
        guard sum == expected else { return .failure(.badChecksum) }
        var parts = payload.split(separator: ",", omittingEmptySubsequences: false)
        guard let address = parts.first, address.count >= 3, address.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return .failure(.malformed) }
        parts.removeFirst()
        // Proprietary sentences ("$PSMDC") have no two-letter talker; they carry no fix for us.
        let talker = String(address.prefix(address.count - 3))
        let type = String(address.suffix(3))
        return .success(NMEASentence(talker: talker, type: type, fields: parts))
    }

    public func field(_ i: Int) -> Substring? {
        guard i < fields.count, !fields[i].isEmpty else { return nil }
        return fields[i]
    }

    public func double(_ i: Int) -> Double? {
        field(i).flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
    }

    /// ddmm.mmmm + hemisphere into signed degrees; nil unless well formed and in range.
    public func angle(_ i: Int, _ hemisphere: Int, degreeDigits: Int) -> Double? {
        guard let raw = field(i), let h = field(hemisphere), raw.count > degreeDigits,
            let deg = Double(raw.prefix(degreeDigits)), let min = Double(raw.dropFirst(degreeDigits)),
            deg >= 0, min >= 0, min < 60
        else { return nil }
        let value = deg + min / 60
        switch h {
        case "N", "E": return value
        case "S", "W": return -value
        default: return nil
        }
    }

    /// hhmmss(.sss) into seconds of the day.
    public func timeOfDay(_ i: Int) -> Double? {
        guard let t = field(i), t.count >= 6, let hh = Int(t.prefix(2)), let mm = Int(t.dropFirst(2).prefix(2)),
            let ss = Double(t.dropFirst(4)), hh < 24, mm < 60, ss < 61
        else { return nil }
        return Double(hh * 3600 + mm * 60) + ss
    }

    /// ddmmyy into days since 1970-01-01.
    public func date(_ i: Int) -> Int? {
        guard let d = field(i), d.count == 6, let dd = Int(d.prefix(2)), let mo = Int(d.dropFirst(2).prefix(2)),
            let yy = Int(d.suffix(2)), (1...31).contains(dd), (1...12).contains(mo)
        else { return nil }
        // NMEA's two-digit year: 80-99 are 1980s and 1990s, the rest this century.
        return CivilTime.days(year: yy >= 80 ? 1900 + yy : 2000 + yy, month: mo, day: dd)
    }
}
