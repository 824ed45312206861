import WatchCore

/// Turns the button's debounced down and up into presses classified by how long it was held
/// (see Docs/controls.md). A press is classified when it ends, so one hold is one press.
public struct PressClassifier: Hashable, Sendable {
    public struct Thresholds: Hashable, Sendable {
        /// Held this long or more: a long press (mark the anchor with the alarm off).
        public var long: Duration = .milliseconds(1500)
        /// Held this long or more: a very long press (release the anchor with the alarm off).
        public var veryLong: Duration = .seconds(5)
        /// Held longer than this: not a gesture but something resting on the button (an elbow,
        /// a chart, a dropped bag). It counts as a short press, which can only snooze a ringing
        /// alarm or acknowledge: it never marks or releases.
        public var resting: Duration = .seconds(10)
        public init() {}
    }

    public var thresholds: Thresholds
    private var downAt: Instant?
    /// True while a hold that began before the box was watching is still down.
    private var ignoringHold = false

    public init(thresholds: Thresholds = Thresholds()) {
        self.thresholds = thresholds
    }

    /// The button was already down when its line was requested: that hold has no start, so its
    /// release is not a press.
    public mutating func startHeld() {
        ignoringHold = true
        downAt = nil
    }

    public mutating func down(at t: Instant) {
        ignoringHold = false
        downAt = t
    }

    public mutating func up(at t: Instant) -> Press? {
        defer {
            downAt = nil
            ignoringHold = false
        }
        guard let start = downAt, !ignoringHold else { return nil }
        return classify(held: t - start)
    }

    public func classify(held: Duration) -> Press {
        if held > thresholds.resting { return .short }
        if held >= thresholds.veryLong { return .veryLong }
        if held >= thresholds.long { return .long }
        return .short
    }
}
