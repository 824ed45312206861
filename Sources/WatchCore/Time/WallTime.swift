/// A wall-clock time, nanoseconds since 1970 UTC. Only stamps records and answers "where was the
/// boat at 02:40": a Pi has no battery-backed clock, so it may jump at boot and never drives a timer.
/// Read by `Posix` (`WallTime.now()`, CLOCK_REALTIME), by the loop alone while the box runs.
public struct WallTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    /// Saturates like `Instant(seconds:)`: a garbage time from a file or a user never traps.
    public init(seconds: Double) { self.nanoseconds = Instant(seconds: seconds).nanoseconds }

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func < (a: WallTime, b: WallTime) -> Bool { a.nanoseconds < b.nanoseconds }
    public static func + (a: WallTime, d: Duration) -> WallTime { WallTime(nanoseconds: a.nanoseconds &+ d.nanoseconds) }
    public static func - (a: WallTime, d: Duration) -> WallTime { WallTime(nanoseconds: a.nanoseconds &- d.nanoseconds) }
    public static func - (a: WallTime, b: WallTime) -> Duration { .nanoseconds(a.nanoseconds &- b.nanoseconds) }

    public var description: String { "\(seconds)s since 1970" }
}
