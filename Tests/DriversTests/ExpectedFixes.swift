/// The fixes a log holds, read independently of gpsd (RMC with status A, GGA with quality > 0),
/// keyed by the receiver's time of day in whole hundredths of a second. The test's own reading,
/// so that the driver is checked against the file, not against itself.
struct ExpectedFix: Equatable {
    var latitude: Double
    var longitude: Double
}

enum ExpectedFixes {
    static func read(_ text: String) -> [Int: ExpectedFix] {
        var out: [Int: ExpectedFix] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            guard raw.hasPrefix("$"), let star = raw.lastIndex(of: "*") else { continue }
            let body = raw[raw.index(after: raw.startIndex)..<star]
            let cs = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            guard UInt8(raw[raw.index(after: star)...].prefix(2), radix: 16) == cs else { continue }
            let f = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let kind = f.first?.suffix(3) else { continue }
            var time: String?, lat: Double?, lon: Double?
            if kind == "RMC", f.count > 6, f[2] == "A" {
                time = f[1]; lat = angle(f[3], f[4]); lon = angle(f[5], f[6])
            } else if kind == "GGA", f.count > 6, let q = Int(f[6]), q > 0 {
                time = f[1]; lat = angle(f[2], f[3]); lon = angle(f[4], f[5])
            }
            guard let time, let lat, let lon, let key = key(time) else { continue }
            out[key] = ExpectedFix(latitude: lat, longitude: lon)
        }
        return out
    }

    /// hhmmss.ss to hundredths of a second of the day.
    static func key(_ t: String) -> Int? {
        guard t.count >= 6, let h = Int(t.prefix(2)), let m = Int(t.dropFirst(2).prefix(2)),
            let s = Double(t.dropFirst(4))
        else { return nil }
        return (h * 3600 + m * 60) * 100 + Int((s * 100).rounded())
    }

    static func key(gpsTime: Double) -> Int {
        Int((gpsTime.truncatingRemainder(dividingBy: 86_400) * 100).rounded())
    }

    static func angle(_ v: String, _ hemi: String) -> Double? {
        guard let x = Double(v), let dot = v.firstIndex(of: ".") else { return nil }
        let degDigits = v.distance(from: v.startIndex, to: dot) - 2
        guard degDigits >= 1 else { return nil }
        let deg = Double(v.prefix(degDigits)) ?? 0
        let minutes = x - deg * 100
        let value = deg + minutes / 60
        return hemi == "S" || hemi == "W" ? -value : value
    }
}
