import WatchCore

/// Remembers when the ring last saw something happen, so it can settle to the night glow once
/// all has been calm for a while ("calm until it isn't").
///
/// A change is what a skipper would notice on the ring or in the status: the position's state,
/// the alarm's state, the set of faults, the anchor, the alert radius; or a decision just taken
/// (accepted or refused), which the loop reports with `activity(at:)`. Checking's progress
/// ticking up is not a change: checking keeps the ring bright by itself.
public struct RingCalm: Hashable, Sendable {
    public private(set) var calmSince: Instant
    private var look: Look?

    struct Look: Hashable, Sendable {
        var verdict: PositionVerdict.Kind
        var alarm: AlarmState.Kind
        var faults: Set<FaultKind>
        var anchor: Coordinate?
        var radius: Meters
    }

    /// Starting counts as a change: the ring is bright for the first minutes after boot.
    public init(since start: Instant) { self.calmSince = start }

    public mutating func observe(_ status: WatchStatus, at now: Instant) {
        let new = Look(verdict: status.verdict.kind, alarm: status.alarm.kind,
                       faults: Set(status.faults.map(\.kind)), anchor: status.anchor, radius: status.radius)
        if let old = look, old != new { calmSince = now }
        look = new
    }

    public mutating func activity(at now: Instant) { calmSince = max(calmSince, now) }
}
