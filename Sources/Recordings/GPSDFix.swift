import WatchCore

/// One gpsd report (a TPV), with every field left unset or NaN already turned into nil, and
/// the one translator from it to a `GPSReading`. Both ways into the watch build one:
/// `run` from gpsd's socket (`GPSDConnection`, through `tpv`), `replay` and the benchmark from a
/// recorded log (`GPSDJSONAssembler` for gpsd's JSON, `NMEAAssembler` for NMEA 0183 with gpsd's
/// own HDOP to eph factors). So the accuracy gate, the 2D/3D rule and the speed and course
/// checks the benchmark judges are the box's own (issue 12, hole 6).
public struct GPSDFix: Hashable, Sendable {
    /// gpsd's mode: 0 not seen yet, 1 no fix, 2 2D, 3 3D.
    public var mode: Int
    public var latitude: Double?
    public var longitude: Double?
    /// Estimated horizontal position error, meters.
    public var eph: Double?
    /// Longitude and latitude errors, meters.
    public var epx: Double?
    public var epy: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees true.
    public var track: Double?
    /// The receiver's UTC time, seconds since 1970.
    public var time: Double?

    public init(
        mode: Int, latitude: Double? = nil, longitude: Double? = nil, eph: Double? = nil,
        epx: Double? = nil, epy: Double? = nil, speed: Double? = nil, track: Double? = nil,
        time: Double? = nil
    ) {
        self.mode = mode
        self.latitude = latitude.finite
        self.longitude = longitude.finite
        self.eph = eph.finite
        self.epx = epx.finite
        self.epy = epy.finite
        self.speed = speed.finite
        self.track = track.finite
        self.time = time.finite
    }

    /// The horizontal accuracy: gpsd's eph, else the length of (epx, epy) as gpsd itself would
    /// combine them. Negative values are a receiver's way of saying "unknown".
    public var accuracy: Meters? {
        if let eph, eph >= 0 { return Meters(eph) }
        if let epx, let epy, epx >= 0, epy >= 0 { return Meters((epx * epx + epy * epy).squareRoot()) }
        return nil
    }

    /// The reading the watch sees. A 2D or 3D mode without a valid coordinate is no fix: the
    /// mode alone is not a position.
    public func reading(received: Instant) -> GPSReading {
        let position = latitude.flatMap { lat in
            longitude.flatMap { lon in Coordinate.validated(latitude: lat, longitude: lon) }
        }
        guard mode >= 2, let position else {
            return .noFix(at: received, gpsTime: time)
        }
        return GPSReading(
            mode: mode >= 3 ? .threeD : .twoD, position: position, accuracy: accuracy,
            speed: speed.flatMap { $0 >= 0 ? $0 : nil },
            track: track.flatMap { (0..<360.000001).contains($0) ? $0 : nil },
            gpsTime: time, received: received)
    }
}

extension Optional where Wrapped == Double {
    fileprivate var finite: Double? { flatMap { $0.isFinite ? $0 : nil } }
}

extension GPSDFix {
    /// Reads one TPV object as gpsd writes it (one compact JSON line) in a single pass over its
    /// bytes: the fields the box uses, every other one skipped. The live path's only parse of a
    /// report (libgps is not used). nil when the line is not a
    /// well-formed object of class TPV.
    public static func tpv(_ line: UnsafeBufferPointer<UInt8>) -> GPSDFix? {
        var scanner = Scanner(line)
        var fix = GPSDFix(mode: 0)
        var isTPV = false
        var timeText: String?
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "}")) { return nil }
        while true {
            scanner.skipSpace()
            // Keys as packed words (`Scanner.word`), compared without building a String.
            guard let key = scanner.word() else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipSpace()
            if scanner.peek == UInt8(ascii: "\"") {
                if key == Key.class {
                    guard let value = scanner.word() else { return nil }
                    isTPV = value == Key.tpv
                } else if key == Key.time {
                    guard let value = scanner.string() else { return nil }
                    timeText = value
                } else {
                    guard scanner.word() != nil else { return nil }
                }
            } else if let number = scanner.number() {
                switch key {
                case Key.mode: fix.mode = Int(exactly: number) ?? 0
                case Key.lat: fix.latitude = number
                case Key.lon: fix.longitude = number
                case Key.eph: fix.eph = number
                case Key.epx: fix.epx = number
                case Key.epy: fix.epy = number
                case Key.speed: fix.speed = number
                case Key.track: fix.track = number
                default: break
                }
            } else {
                guard scanner.skipValue() else { return nil }
            }
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: ",")) { continue }
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            break
        }
        guard isTPV else { return nil }
        fix.time = timeText.flatMap(CivilTime.parseISO8601)
        // The same rules as the initializer: NaN and infinities are no value.
        return GPSDFix(mode: fix.mode, latitude: fix.latitude, longitude: fix.longitude, eph: fix.eph, epx: fix.epx,
                       epy: fix.epy, speed: fix.speed, track: fix.track, time: fix.time)
    }

    /// The keys (and the class) the TPV reader looks for, packed as `Scanner.word` packs them
    /// (the bytes little-endian in a word: "lat" is 0x74616c). Literals, so reading one costs
    /// nothing; `LogReaderTests` checks each against `pack` of its text.
    enum Key {
        static var `class`: UInt64 { 0x73_73616c63 }
        static var tpv: UInt64 { 0x565054 }
        static var time: UInt64 { 0x656d6974 }
        static var mode: UInt64 { 0x65646f6d }
        static var lat: UInt64 { 0x74616c }
        static var lon: UInt64 { 0x6e6f6c }
        static var eph: UInt64 { 0x687065 }
        static var epx: UInt64 { 0x787065 }
        static var epy: UInt64 { 0x797065 }
        static var speed: UInt64 { 0x64_65657073 }
        static var track: UInt64 { 0x6b_63617274 }

        static func pack(_ s: String) -> UInt64 {
            var w: UInt64 = 0
            for (k, b) in s.utf8.prefix(8).enumerated() { w |= UInt64(b) << (8 * UInt64(k)) }
            return w
        }
    }

    /// A cursor over one line of JSON: just enough for gpsd's flat objects, never trusting them.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func take(_ c: UInt8) -> Bool {
            guard peek == c else { return false }
            i += 1
            return true
        }

        mutating func skipSpace() {
            while let c = peek, c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A { i += 1 }
        }

        /// A string without escapes decoded (gpsd's keys and the fields read here have none);
        /// an escaped quote is stepped over.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            while let c = peek, c != UInt8(ascii: "\"") {
                i += c == UInt8(ascii: "\\") ? 2 : 1
            }
            guard i < bytes.count else { return nil }
            let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            i += 1
            return s
        }

        /// A string stepped over like `string()`, its first 8 bytes packed little-endian into a
        /// word (`Key.pack`); 0 for a longer or escaped one, which no key the reader wants is.
        mutating func word() -> UInt64? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            var w: UInt64 = 0
            var plain = true
            while let c = peek, c != UInt8(ascii: "\"") {
                if c == UInt8(ascii: "\\") || c == 0 { plain = false }
                if i - start < 8 { w |= UInt64(c) << (8 * UInt64(i - start)) } else { plain = false }
                i += c == UInt8(ascii: "\\") ? 2 : 1
            }
            guard i < bytes.count else { return nil }
            i += 1
            return plain ? w : 0
        }

        /// A JSON number, nil (and nothing consumed) when the value is not one.
        mutating func number() -> Double? {
            let start = i
            while let c = peek, (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
            {
                i += 1
            }
            guard i > start, i - start <= 32,
                let d = Scanner.exactDecimal(UnsafeBufferPointer(rebasing: bytes[start..<i]))
                    ?? Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
            else {
                i = start
                return nil
            }
            return d
        }

        /// The value of a plain decimal (`-?digits(.digits)?`, at most 15 digits) without a
        /// String or strtod: its digits as an integer (exact below 2^53) divided by a power of
        /// ten up to 10^15 (exact), one correctly rounded division, so the same Double as
        /// `Double(String)` (Clinger's fast path; each power of ten up to 10^22 is exact). nil for anything else, which goes there.
        static func exactDecimal(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
            var k = 0
            let negative = b.first == UInt8(ascii: "-")
            if negative { k = 1 }
            var mantissa: UInt64 = 0
            var digits = 0, whole = 0, fraction = -1
            while k < b.count {
                let c = b[k]
                if c >= 0x30, c <= 0x39 {
                    mantissa = mantissa &* 10 &+ UInt64(c - 0x30)
                    digits += 1
                    if fraction >= 0 { fraction += 1 } else { whole += 1 }
                } else if c == UInt8(ascii: "."), fraction < 0 {
                    fraction = 0
                } else {
                    return nil
                }
                k += 1
            }
            guard whole > 0, fraction != 0, digits <= 15 else { return nil }
            var scale = 1.0
            for _ in 0..<max(fraction, 0) { scale *= 10 }
            let v = Double(mantissa) / scale
            return negative ? -v : v
        }

        /// Steps over any other value: true, false, null, or a nested array or object.
        mutating func skipValue() -> Bool {
            var depth = 0
            let start = i
            while let c = peek {
                switch c {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return i > start }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 { return i > start }
                default:
                    break
                }
                i += 1
            }
            return false
        }
    }
}
