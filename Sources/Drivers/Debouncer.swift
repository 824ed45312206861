import WatchCore

/// Debounces one contact from its kernel-stamped edges: a level counts only once it has held,
/// with no edge at all, for `settle`. A bouncing contact makes a burst of edges within a few
/// milliseconds; the burst restarts the wait each time, so it ends in at most one change, and a
/// glitch that returns to where it was makes none. Pure: the shell feeds edges and time.
public struct Debouncer: Hashable, Sendable {
    /// Slide switches and tact buttons bounce for 1 to 10 ms; 50 ms is well past that and still
    /// feels immediate to a hand.
    public static let defaultSettle: Duration = .milliseconds(50)

    public let settle: Duration
    /// The level last reported (nil before `start`).
    public private(set) var stable: Bool?
    /// The newest level seen and when it began: a change waiting to prove itself.
    private var candidate: LineEdge?

    public init(settle: Duration = Debouncer.defaultSettle) {
        self.settle = settle
    }

    /// The level read when the line was requested: taken as is and reported by the caller,
    /// because the position at start is a decision.
    public mutating func start(level: Bool) {
        stable = level
        candidate = nil
    }

    /// An edge, stamped by the kernel. `now` is the loop's clock: a stamp from the future, or
    /// one so old that the kernel cannot have used the monotonic clock, is replaced by `now`.
    public mutating func edge(_ edge: LineEdge, now: Instant) {
        var at = edge.at
        if at > now || now - at > .seconds(60) { at = now }
        if let c = candidate, at < c.at { at = c.at }
        candidate = LineEdge(high: edge.high, at: at)
    }

    /// When the candidate will have held long enough, if one is waiting.
    public var deadline: Instant? { candidate.map { $0.at + settle } }

    /// At or after the deadline: the settled change, stamped when its last edge happened, or
    /// nil if the contact came back to where it was. `reading` is the level read from the line
    /// now; if it disagrees with the last edge, an edge is still unread (or the kernel dropped
    /// some): the wait starts again from `now` rather than trusting either.
    public mutating func settled(now: Instant, reading: Bool? = nil) -> LineEdge? {
        guard let c = candidate, now >= c.at + settle else { return nil }
        if let reading, reading != c.high {
            candidate = LineEdge(high: reading, at: now)
            return nil
        }
        candidate = nil
        guard c.high != stable else { return nil }
        stable = c.high
        return c
    }
}
