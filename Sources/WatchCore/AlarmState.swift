/// The alarm, decided from the position verdict and the switch. Only the surfaces about the
/// alarm (buzzer, siren, the ring's throb) read this.
public enum AlarmState: Hashable, Sendable {
    /// Not armed (with or without an anchor).
    case off
    case armed
    /// Latched: rings until snoozed or switched off. `episode` is what a snooze must name.
    case ringing(episode: Int)
    /// Silenced until `until`; then rings again (a new episode) unless the boat is holding.
    case snoozed(until: Instant, episode: Int)

    public var kind: Kind {
        switch self {
        case .off: .off
        case .armed: .armed
        case .ringing: .ringing
        case .snoozed: .snoozed
        }
    }

    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case off, armed, ringing, snoozed
    }

    /// The alarm episode a snooze would answer now, if any.
    public var episode: Int? {
        switch self {
        case .ringing(let e), .snoozed(_, let e): e
        case .off, .armed: nil
        }
    }

    /// True from arming until the switch goes off: armed, ringing or snoozed.
    public var isArmed: Bool { self != .off }
}
