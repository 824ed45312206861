import Posix
import WatchCore

/// How a skipper reads a wall time, and how the command line parses one. The journal's
/// `WallTime` (nanoseconds since 1970 UTC, CLOCK_REALTIME) is the one wall time of the box:
/// records, the snapshot's frame and what a skipper reads all use it. Judging "how long ago"
/// across processes also checks the monotonic clock where the boot is the same (see
/// `SnapshotReading`), because a Pi's wall clock can jump at boot.
extension WallTime {
    private func broken(utc: Bool) -> CalendarTime { CalendarTime(seconds: seconds, utc: utc) }

    private static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// "03:12" in local time: what a skipper reads.
    var clock: String {
        let t = broken(utc: false)
        return "\(Self.two(t.hour)):\(Self.two(t.minute))"
    }

    /// "03:12:09" in local time.
    var clockSeconds: String {
        let t = broken(utc: false)
        return "\(Self.two(t.hour)):\(Self.two(t.minute)):\(Self.two(t.second))"
    }

    /// "2026-11-30 03:12" in local time, for times not from today.
    var dateAndClock: String {
        let t = broken(utc: false)
        return "\(t.year)-\(Self.two(t.month))-\(Self.two(t.day)) \(clock)"
    }

    /// ISO 8601 UTC, "2026-11-30T03:12:09Z" (GPX's xsd:dateTime).
    var iso8601: String {
        let t = broken(utc: true)
        return "\(t.year)-\(Self.two(t.month))-\(Self.two(t.day))T"
            + "\(Self.two(t.hour)):\(Self.two(t.minute)):\(Self.two(t.second))Z"
    }

    /// "2 min ago", "1 h 5 min ago": whole units a skipper reads at a glance.
    static func ago(_ d: Duration) -> String {
        let s = max(0, Int(d.seconds.rounded()))
        if s < 60 { return "\(s) s ago" }
        if s < 3600 { return "\(s / 60) min ago" }
        let m = (s % 3600) / 60
        return m == 0 ? "\(s / 3600) h ago" : "\(s / 3600) h \(m) min ago"
    }

    /// Parses what `--since`, `--from` and `--to` accept: "2026-11-30T03:12:09Z" or
    /// "2026-11-30 03:12" (local), "03:12" (local, the most recent such time not in the future),
    /// or a duration back from now ("5m", "2h", "90s", "1d").
    /// "now" is now. A clock time given as `after` (a `--to` after its `--from`) is the first
    /// such time after it instead, so `--to` a few minutes ahead of the clock, or past midnight,
    /// means the time a skipper meant, not the day before.
    static func parse(_ text: String, now: WallTime, after: WallTime? = nil) -> WallTime? {
        if text.lowercased() == "now" { return now }
        if let d = DurationText.parse(text) { return now - d }
        let digits = text.split(whereSeparator: { !$0.isNumber }).map { Int($0) }
        guard !digits.contains(where: { $0 == nil }) else { return nil }
        let n = digits.map { $0! }
        let utc = text.hasSuffix("Z")
        var t = now.broken(utc: utc)
        switch n.count {
        case 2 where !text.contains("-"), 3 where !text.contains("-"):
            t.hour = n[0]; t.minute = n[1]; t.second = n.count == 3 ? n[2] : 0
        case 5, 6:
            guard (1900...9999).contains(n[0]) else { return nil }
            t.year = n[0]; t.month = n[1]; t.day = n[2]
            t.hour = n[3]; t.minute = n[4]; t.second = n.count == 6 ? n[5] : 0
        default:
            return nil
        }
        guard (0...23).contains(t.hour), (0...59).contains(t.minute), (0...60).contains(t.second),
            (1...12).contains(t.month), (1...31).contains(t.day) else { return nil }
        let secs = t.seconds(utc: utc)
        guard secs != -1 else { return nil }
        var w = WallTime(seconds: secs)
        if n.count <= 3, w > now { w = w - .seconds(86_400) }
        if n.count <= 3, let after {
            while w <= after { w = w + .seconds(86_400) }
        }
        return w
    }
}

/// "5m", "90s", "2h", "1d", "1h30m": durations typed on the command line. With
/// `bareSeconds`, a number with no unit is seconds (`mark --ago 10`).
enum DurationText {
    static func parse(_ text: String, bareSeconds: Bool = false) -> Duration? {
        if bareSeconds, let v = Double(text), v.isFinite { return .seconds(v) }
        var total = 0.0
        var number = ""
        var sawUnit = false
        for c in text {
            if c.isNumber || c == "." { number.append(c); continue }
            guard let v = Double(number) else { return nil }
            switch c {
            case "s": total += v
            case "m": total += v * 60
            case "h": total += v * 3600
            case "d": total += v * 86_400
            default: return nil
            }
            number = ""
            sawUnit = true
        }
        guard sawUnit, number.isEmpty, total.isFinite else { return nil }
        return .seconds(total)
    }
}
