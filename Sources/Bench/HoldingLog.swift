/// A 10 Hz NMEA log of a boat holding at anchor (the good receiver's real noise around a fixed
/// point, GGA with HDOP 1.0), for measuring `anchor-alert run` over an hour of fixes:
/// `anchor-bench --holding-log FILE SECONDS`, then `anchor-alert run --simulate FILE`.
///
/// `--dragging-log`: the same, but after `dragAfter` the boat drags away at 2 m/s for 30 s and
/// lies 80 m from where it held for the rest of the log: checking, dragging and (armed) ringing,
/// the states where the status follows every reading.
enum HoldingLog {
    static let dragAfter = 12.0

    static func write(path: String, seconds: Int, sources: [NoiseCapture], dragging: Bool = false) throws {
        var rng = SplitMix64(seed: 7)
        let profile = ReceiverProfile(quality: .good, rate: 10, gapsPerHour: 0)
        let noise = NoiseTrack(seconds: seconds + 2, profile: profile, sources: sources, rng: &rng)
        let frame = LocalFrame(origin: Scenario.origin)
        var out: [UInt8] = []
        out.reserveCapacity(seconds * 10 * 80)
        for i in 0..<(seconds * 10) {
            let t = Double(i) / 10
            let n = noise.at(t)
            let drift = dragging ? 2 * min(30, max(0, t - dragAfter)) : 0
            let c = frame.coordinate(east: 20 + drift + n.east, north: n.north)
            let tod = 3600.0 + t
            let body = "GPGGA,\(clock(tod)),\(angle(c.latitude, degreeDigits: 2)),N,\(angle(c.longitude, degreeDigits: 3)),E,1,09,1.0,5.0,M,40.0,M,,"
            out += Array("$\(body)*\(checksum(body))\n".utf8)
        }
        try BenchFile.write(path, String(decoding: out, as: UTF8.self))
    }

    static func clock(_ tod: Double) -> String {
        let cs = Int((tod * 100).rounded())
        let h = cs / 360_000, m = cs / 6000 % 60, s = cs / 100 % 60, f = cs % 100
        return two(h) + two(m) + two(s) + "." + two(f)
    }

    /// ddmm.mmmmm (or dddmm.mmmmm), as NMEA writes a latitude or longitude.
    static func angle(_ degrees: Double, degreeDigits: Int) -> String {
        let whole = Int(degrees)
        let minutes = (degrees - Double(whole)) * 60
        var d = String(whole)
        while d.count < degreeDigits { d = "0" + d }
        var m = Format.fixed(minutes, 5)
        if minutes < 10 { m = "0" + m }
        return d + m
    }

    static func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }

    static func checksum(_ body: String) -> String {
        let x = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = Array("0123456789ABCDEF")
        return String([hex[Int(x >> 4)], hex[Int(x & 15)]])
    }
}
