#if canImport(Glibc)
import Glibc
#endif
import WatchCore

/// The shell's one monotonic clock, and wall time for stamping records only.
enum SystemClock {
    static func now() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }

    /// Seconds since 1970. A Pi has no battery clock: this can jump at boot, so it never times
    /// anything.
    static func wall() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
