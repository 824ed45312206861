import Glibc
import WatchCore

/// The box's two clocks, read here and nowhere else. While the box runs, its loop reads both
/// once a turn (`LoopClock` in Appliance) and passes that reading to everything it drives: the
/// watch, the siren, the buzzer, the journal, the outputs. A command's own small loop reads
/// `MonotonicClock.now()` for its waits.
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

extension WallTime {
    /// CLOCK_REALTIME now. While the box runs, the loop reads it once a turn (`LoopClock`).
    public static func now() -> WallTime { WallTime(nanoseconds: WallClock.nanoseconds()) }
}

/// The box's local time zone (the system's, /etc/localtime and TZ), which only the C library
/// knows: local fields through localtime_r and back through mktime. UTC is `CalendarTime`'s
/// own arithmetic.
extension CalendarTime {
    /// The fields of `seconds` since 1970 (whole seconds, rounded down), UTC or local.
    public init(seconds: Double, utc: Bool) {
        if utc {
            self.init(utcSeconds: seconds)
            return
        }
        var t = time_t(Self.wholeSeconds(seconds))
        var tm = Glibc.tm()
        localtime_r(&t, &tm)
        self.init(year: Int(tm.tm_year) + 1900, month: Int(tm.tm_mon) + 1, day: Int(tm.tm_mday),
                  hour: Int(tm.tm_hour), minute: Int(tm.tm_min), second: Int(tm.tm_sec))
    }

    /// Seconds since 1970 of these fields, read as UTC or local time (-1 when the C library
    /// can't place a local time).
    public func seconds(utc: Bool) -> Double {
        if utc { return utcSeconds }
        var tm = Glibc.tm()
        tm.tm_year = Int32(year - 1900)
        tm.tm_mon = Int32(month - 1)
        tm.tm_mday = Int32(day)
        tm.tm_hour = Int32(hour)
        tm.tm_min = Int32(minute)
        tm.tm_sec = Int32(second)
        tm.tm_isdst = -1
        return Double(mktime(&tm))
    }
}
