/// Builds NMEA 0183 sentences for tests: framing and checksum, and the common GGA/RMC/GSA with
/// known values, so a test can say exactly what the receiver said.
public enum NMEA {
    /// `$body*CS`, the checksum being the XOR of the body's bytes.
    public static func sentence(_ body: String) -> String {
        let cs = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = String(cs, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" : "")\(hex)"
    }

    /// ddmm.mmmm,N for a latitude, dddmm.mmmm,E for a longitude.
    public static func angle(_ degrees: Double, latitude: Bool) -> String {
        let hemi = latitude ? (degrees < 0 ? "S" : "N") : (degrees < 0 ? "W" : "E")
        let a = abs(degrees)
        let d = Int(a)
        let minutes = (a - Double(d)) * 60
        let whole = Int(minutes)
        let frac = Int(((minutes - Double(whole)) * 10_000).rounded())
        let dd = String(d)
        let degText = String(repeating: "0", count: max(0, (latitude ? 2 : 3) - dd.count)) + dd
        let mm = whole < 10 ? "0\(whole)" : "\(whole)"
        let ffff = String(frac)
        return "\(degText)\(mm).\(String(repeating: "0", count: max(0, 4 - ffff.count)))\(ffff),\(hemi)"
    }

    /// hhmmss.00 for seconds of the day.
    public static func time(_ secondsOfDay: Int) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return two(secondsOfDay / 3600) + two(secondsOfDay / 60 % 60) + two(secondsOfDay % 60) + ".00"
    }

    /// One epoch with a fix: GGA (quality 1, `hdop`), GSA (3D) and RMC (status A).
    public static func fix(
        secondsOfDay: Int, date: String, latitude: Double, longitude: Double, hdop: Double = 1.0,
        knots: Double = 0.2, course: Double = 45.0
    ) -> [String] {
        let t = time(secondsOfDay)
        let lat = angle(latitude, latitude: true)
        let lon = angle(longitude, latitude: false)
        return [
            sentence("GPGGA,\(t),\(lat),\(lon),1,08,\(hdop),12.0,M,40.0,M,,"),
            sentence("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.8,\(hdop),1.2"),
            sentence("GPRMC,\(t),A,\(lat),\(lon),\(knots),\(course),\(date),,,A"),
        ]
    }

    /// One epoch without a fix: GGA quality 0, GSA mode 1, RMC status V.
    public static func noFix(secondsOfDay: Int, date: String) -> [String] {
        let t = time(secondsOfDay)
        return [
            sentence("GPGGA,\(t),,,,,0,00,99.99,,,,,,"),
            sentence("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"),
            sentence("GPRMC,\(t),V,,,,,,,\(date),,,N"),
        ]
    }
}
