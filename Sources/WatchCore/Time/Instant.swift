/// A point on the box's one monotonic clock (CLOCK_MONOTONIC in the shell, a manual clock in tests).
///
/// The core never reads a clock: every event arrives with its `Instant`. Wall time is used only to
/// stamp records, because a Pi has no battery-backed clock and its wall time can jump at boot.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    /// Saturates instead of trapping: a garbage time (NaN, or centuries away) from a file or a
    /// socket must never stop the box. About 146 years either way is representable.
    public init(seconds: Double) {
        let ns = (seconds * 1e9).rounded()
        guard ns.isFinite else {
            self.nanoseconds = ns > 0 ? Self.limit : (ns < 0 ? -Self.limit : 0)
            return
        }
        self.nanoseconds = Int64(max(-Double(Self.limit), min(Double(Self.limit), ns)))
    }

    static let limit = Int64.max / 2

    public static let zero = Instant(nanoseconds: 0)

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }

    public static func + (a: Instant, d: Duration) -> Instant {
        Instant(nanoseconds: a.nanoseconds &+ d.nanoseconds)
    }
    public static func - (a: Instant, d: Duration) -> Instant {
        Instant(nanoseconds: a.nanoseconds &- d.nanoseconds)
    }
    public static func - (a: Instant, b: Instant) -> Duration {
        .nanoseconds(a.nanoseconds &- b.nanoseconds)
    }

    public var description: String { "\(seconds)s" }
}

extension Duration {
    /// Whole nanoseconds, saturating; a watch never deals in spans beyond a few weeks.
    /// The 128-bit count of attoseconds (`_high`, `_low`) divided by 10^9 in two 64-bit steps,
    /// not through `components` (a library call of about 1,100 instructions, several times a
    /// fix; Swift 6.0 has no `attoseconds`). The same value: truncated toward zero, wrapping.
    public var nanoseconds: Int64 {
        let negative = _high < 0
        var high = UInt64(bitPattern: _high), low = _low
        if negative {
            low = ~low &+ 1
            high = ~high &+ (low == 0 ? 1 : 0)
        }
        let (_, rest) = high.quotientAndRemainder(dividingBy: 1_000_000_000)
        let (q, _) = (1_000_000_000 as UInt64).dividingFullWidth((rest, low))
        let magnitude = Int64(bitPattern: q)
        return negative ? 0 &- magnitude : magnitude
    }

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func seconds(_ s: Double) -> Duration { .nanoseconds(Instant(seconds: s).nanoseconds) }
}
