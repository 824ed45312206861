import WatchCore

/// A GPS log read from a file: its fixes in file order, each with the file's own time, and
/// what was refused on the way.
public struct RecordedLog: Sendable {
    public enum Format: String, Sendable { case nmea, gpsdJSON = "gpsd-json" }

    public struct Fix: Hashable, Sendable {
        /// Seconds since the first report of the file, from the file's own timestamps.
        public var t: Double
        public var reading: GPSReading
    }

    public var format: Format
    public var fixes: [Fix]
    /// Lines refused, by reason (checksum mismatch, malformed, ...).
    public var refused: [String: Int]
    public var linesRead: Int

    /// Each fix's reading with `received` set to the file time, for feeding a watch.
    public var readings: [GPSReading] { fixes.map(\.reading) }
}

public enum LogReaderError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case noReports(linesRead: Int)

    public var description: String {
        switch self {
        case .empty: "the file is empty"
        case .noReports(let n): "no GPS reports in \(n) lines (expected NMEA 0183 GGA/RMC/GLL or gpsd JSON TPV)"
        }
    }
}

/// Reads NMEA 0183 (GGA, RMC, GLL and GSA from any talker, checksums verified) or gpsd JSON
/// (TPV lines) into readings, choosing the format from the content.
public enum LogReader {
    /// gpsd 3.22 reports eph = HDOP x 19 m (measured: HDOP 2.25 gives eph 42.75). Replay uses
    /// the same factor so a file read here and the same file through gpsd judge alike.
    public static let hdopToEph = 19.0
    /// For differential fixes (GGA quality 2) gpsd 3.22 uses HDOP x 4.75 m (measured on mt3339.log).
    public static let hdopToEphDifferential = 4.75

    public static func read(bytes: [UInt8]) throws(LogReaderError) -> RecordedLog {
        guard !bytes.isEmpty else { throw .empty }
        var nmea = NMEAAssembler()
        var json = GPSDJSONAssembler()
        var lines = 0
        var jsonLines = 0, nmeaLines = 0
        var refused: [String: Int] = [:]
        var start = 0
        func handle(_ line: Substring) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
            guard let first = trimmed.first, first != "#" else { return }
            if first == "{" {
                jsonLines += 1
                if let why = json.take(trimmed) { refused[why, default: 0] += 1 }
            } else if first == "$" || first == "!" {
                nmeaLines += 1
                switch NMEASentence.parse(trimmed) {
                case .success(let s): nmea.take(s)
                case .failure(let f): refused[f.rawValue, default: 0] += 1
                }
            } else {
                refused["not a GPS report", default: 0] += 1
            }
        }
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
            if i > start {
                lines += 1
                handle(Substring(decoding: bytes[start..<i], as: UTF8.self))
            }
            start = i + 1
        }
        nmea.finish()
        let useJSON = json.fixes.count > nmea.fixes.count || (nmea.fixes.isEmpty && jsonLines > nmeaLines)
        let fixes = useJSON ? json.fixes : nmea.fixes
        guard !fixes.isEmpty else { throw .noReports(linesRead: lines) }
        return RecordedLog(format: useJSON ? .gpsdJSON : .nmea, fixes: fixes, refused: refused, linesRead: lines)
    }
}
