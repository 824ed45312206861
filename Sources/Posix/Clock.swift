import Glibc
import WatchCore

/// The box's two clocks, read here and nowhere else. The loop (or a command's own small loop)
/// reads `MonotonicClock.now()` once per turn and passes `now` to everything it drives: the
/// watch, the siren, the buzzer, the journal.
public enum MonotonicClock {
    /// CLOCK_MONOTONIC: never jumps, the only clock anything is timed by.
    public static func now() -> Instant { Instant(nanoseconds: read(CLOCK_MONOTONIC)) }

    /// Sleeps the calling thread (commands and fixtures only; the loop never sleeps).
    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.towardZero)) * 1e9))
        var left = timespec()
        do {
            while try Syscall.interruptible("nanosleep", { nanosleep(&ts, &left) }) == nil { ts = left }
        } catch {
            // nanosleep fails otherwise only on a bad timespec (EINVAL), which this one is not.
        }
    }
}

/// CLOCK_REALTIME: stamps records and answers "where was the boat at 02:40". A Pi has no
/// battery-backed clock, so it can jump at boot and never times anything.
public enum WallClock {
    public static func nanoseconds() -> Int64 { read(CLOCK_REALTIME) }
    public static func seconds() -> Double { Double(nanoseconds()) / 1e9 }
}

private func read(_ clock: clockid_t) -> Int64 {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
}

/// A wall time broken into calendar fields, UTC or the box's local zone (gmtime_r/localtime_r
/// and back with timegm/mktime).
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

    /// The fields of `seconds` since 1970 (whole seconds, rounded down).
    public init(seconds: Double, utc: Bool) {
        var t = time_t(seconds.rounded(.down))
        var tm = Glibc.tm()
        if utc { gmtime_r(&t, &tm) } else { localtime_r(&t, &tm) }
        self.init(year: Int(tm.tm_year) + 1900, month: Int(tm.tm_mon) + 1, day: Int(tm.tm_mday),
                  hour: Int(tm.tm_hour), minute: Int(tm.tm_min), second: Int(tm.tm_sec))
    }

    /// Seconds since 1970 of these fields, read as UTC or local time.
    public func seconds(utc: Bool) -> Double {
        var tm = Glibc.tm()
        tm.tm_year = Int32(year - 1900)
        tm.tm_mon = Int32(month - 1)
        tm.tm_mday = Int32(day)
        tm.tm_hour = Int32(hour)
        tm.tm_min = Int32(minute)
        tm.tm_sec = Int32(second)
        tm.tm_isdst = -1
        return Double(utc ? timegm(&tm) : mktime(&tm))
    }
}
