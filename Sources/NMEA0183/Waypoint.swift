import WatchCore

/// The anchor as a waypoint (WPL: latitude, N/S, longitude, E/W, waypoint identifier), for
/// plotters that read no alert sentence: the mark shows on their chart. Layout from the NMEA
/// 0183 field lists the parsers publish (pynmea2's `WPL`, OpenCPN's `model/src/ais_decoder.cpp`):
/// `$IIWPL,ddmm.mmmm,N,dddmm.mmmm,E,ANCHOR*hh`. Pure: no I/O.
public enum Waypoint {
    /// The identifier the anchor goes out under; plotters show it beside the mark.
    public static let anchorName = "ANCHOR"

    public static func wpl(talker: String, name: String = anchorName, at p: Coordinate) -> String {
        let lat = degreesMinutes(abs(p.latitude), degreeDigits: 2)
        let lon = degreesMinutes(abs(p.longitude), degreeDigits: 3)
        let id = Sentence.text(name, limit: Sentence.room(talker + "WPL", before: [lat, "N", lon, "E"]))
        return Sentence.encode(talker + "WPL", [lat, p.latitude < 0 ? "S" : "N", lon, p.longitude < 0 ? "W" : "E", id])
    }

    /// `dddmm.mmmm`: whole degrees, then minutes to 4 decimals (0.0001' is 0.19 m of latitude).
    static func degreesMinutes(_ deg: Double, degreeDigits: Int) -> String {
        let tenThousandths = Int64((deg * 60 * 10_000).rounded())
        let whole = tenThousandths / (60 * 10_000)
        let minutes = tenThousandths % (60 * 10_000)
        var d = String(whole)
        while d.count < degreeDigits { d = "0" + d }
        var m = String(minutes / 10_000)
        if m.count < 2 { m = "0" + m }
        var f = String(minutes % 10_000)
        while f.count < 4 { f = "0" + f }
        return d + m + "." + f
    }
}
