/// Calendar arithmetic without Foundation (Howard Hinnant's days-from-civil and its inverse):
/// the proleptic Gregorian calendar, UTC, no time zone. The box's local zone is the system's,
/// read by `Posix` (`CalendarTime(seconds:utc: false)`).
public enum CivilTime {
    /// Days since 1970-01-01 of a date. A day past its month's end carries into the next month.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01.
    public static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// ISO 8601 UTC ("2015-01-31T08:35:54.884Z") into seconds since 1970.
    public static func parseISO8601(_ s: String) -> Double? {
        let u = Array(s.utf8)
        guard u.count >= 20, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T"),
            u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"), u.last == UInt8(ascii: "Z")
        else { return nil }
        func int(_ r: Range<Int>) -> Int? { Int(String(decoding: u[r], as: UTF8.self)) }
        guard let y = int(0..<4), let mo = int(5..<7), let d = int(8..<10), let h = int(11..<13), let mi = int(14..<16),
            let sec = Double(String(decoding: u[17..<(u.count - 1)], as: UTF8.self)),
            (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, sec < 61
        else { return nil }
        return Double(days(year: y, month: mo, day: d) * 86_400 + h * 3600 + mi * 60) + sec
    }
}

/// A wall time broken into calendar fields. UTC here, by `CivilTime`'s arithmetic; the box's
/// local zone through `Posix` (`init(seconds:utc:)`, `seconds(utc:)`: localtime_r and mktime).
public struct CalendarTime: Hashable, Sendable {
    public var year: Int
    /// 1...12
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The UTC fields of `seconds` since 1970 (whole seconds, rounded down).
    public init(utcSeconds seconds: Double) {
        let whole = Self.wholeSeconds(seconds)
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let inDay = whole - days * 86_400
        let date = CivilTime.date(days: days)
        self.init(year: date.year, month: date.month, day: date.day,
                  hour: inDay / 3600, minute: (inDay % 3600) / 60, second: inDay % 60)
    }

    /// `seconds` rounded down, as a count that never traps: a garbage time (NaN, or beyond
    /// ten million years either way) is clamped, not fatal.
    public static func wholeSeconds(_ seconds: Double) -> Int {
        guard !seconds.isNaN else { return 0 }
        return Int(max(-3e14, min(3e14, seconds.rounded(.down))))
    }

    /// Seconds since 1970 of these fields read as UTC; fields past their range carry over (a
    /// 61st minute is the next hour's first), as timegm(3) does.
    public var utcSeconds: Double {
        let y = year + (month - 1 >= 0 ? (month - 1) / 12 : (month - 12) / 12)
        let m = ((month - 1) % 12 + 12) % 12 + 1
        return Double(CivilTime.days(year: y, month: m, day: 1) * 86_400
            + (day - 1) * 86_400 + hour * 3600 + minute * 60 + second)
    }
}
