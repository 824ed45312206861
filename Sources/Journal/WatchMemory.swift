import WatchCore

/// What a restart restores: exactly the arguments of
/// `Watch.restore(anchor:radius:armed:ringingEpisode:lastEpisode:at:)`.
public struct WatchMemory: Hashable, Sendable {
    public var anchor: Coordinate?
    public var radius: Meters
    public var armed: Bool
    /// Set while an alarm episode is ringing or snoozed: it rings again at once after a restart.
    public var ringingEpisode: Int?
    public var lastEpisode: Int
    /// The ringing episode's last answer in the journal was a snooze (it rings again after a
    /// restart all the same: the snooze's end is on a clock that restarted), for the words said
    /// then. A snapshot of a watch ringing again keeps it only if it was snoozed when taken.
    public var snoozed: Bool

    public init(anchor: Coordinate? = nil, radius: Meters, armed: Bool = false, ringingEpisode: Int? = nil,
                lastEpisode: Int = 0, snoozed: Bool = false) {
        self.anchor = anchor
        self.radius = radius
        self.armed = armed
        self.ringingEpisode = ringingEpisode
        self.lastEpisode = lastEpisode
        self.snoozed = snoozed && ringingEpisode != nil
    }

    /// A fresh box: nothing marked, the configured radius.
    public static func fresh(radius: Meters = WatchSettings().radius) -> WatchMemory {
        WatchMemory(radius: radius)
    }

    /// What the watch itself holds now, in the same shape (for snapshots and for tests).
    public init(of watch: Watch) {
        self.init(anchor: watch.anchor, radius: watch.radius, armed: watch.alarm.isArmed,
                  ringingEpisode: watch.alarm.episode, lastEpisode: watch.lastEpisode, snoozed: watch.alarm.kind == .snoozed)
    }

    /// The replay rules of Docs/journal-format.md, "Restoring the watch".
    public mutating func apply(_ record: JournalRecord) {
        switch record {
        case .snapshot(let whole): self = whole
        case .mark(let anchor, _): self.anchor = anchor
        case .release: anchor = nil
        case .radius(let r): radius = r
        case .arm: armed = true
        case .disarm:
            armed = false
            ringingEpisode = nil
        case .alarmStart(let e):
            armed = true
            ringingEpisode = e
            lastEpisode = max(lastEpisode, e)
            snoozed = false
        case .snooze(let e, _):
            ringingEpisode = e
            lastEpisode = max(lastEpisode, e)
            snoozed = true
        case .alarmStop(let e):
            if ringingEpisode == e { ringingEpisode = nil }
        case .segment, .boot, .verdict, .faultRaised, .faultCleared, .trackFix, .shutdown, .farthest, .swing:
            break
        }
        // The shapes the watch can be in (a damaged journal may say otherwise): no alarm without
        // an anchor (`Watch.restore` restores that as off), and a ringing or snoozed alarm is
        // armed (`AlarmState.isArmed`).
        if anchor == nil {
            armed = false
            ringingEpisode = nil
        }
        if ringingEpisode != nil { armed = true } else { snoozed = false }
    }
}

extension Watch {
    /// Restores the watch from the journal's memory; returns the actions to carry out (a ringing
    /// alarm's `.alarmSound(on: true)` first among them).
    public mutating func restore(_ memory: WatchMemory, at now: Instant) -> [Action] {
        restore(anchor: memory.anchor, radius: memory.radius, armed: memory.armed,
                ringingEpisode: memory.ringingEpisode, lastEpisode: memory.lastEpisode, at: now)
    }

    /// Restores the watch from all the journal recovered: its memory, the farthest distance and
    /// what the swing had learnt.
    public mutating func restore(_ recovery: Journal.Recovery, at now: Instant) -> [Action] {
        let m = recovery.memory
        return restore(anchor: m.anchor, radius: m.radius, armed: m.armed, ringingEpisode: m.ringingEpisode,
                       lastEpisode: m.lastEpisode, farthest: recovery.farthest, swing: recovery.swing, at: now)
    }
}
