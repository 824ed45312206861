import WatchCore

/// How closely the journal keeps the track: every fix while something is at stake, one fix per
/// `calmTrackInterval` otherwise, so a night of holding costs few bytes and few syncs.
public enum TrackPace: Hashable, Sendable {
    case calm
    case attention

    public init(verdict: PositionVerdict, alarm: AlarmState) {
        switch (verdict.kind, alarm.kind) {
        case (.checking, _), (.dragging, _), (_, .ringing), (_, .snoozed): self = .attention
        default: self = .calm
        }
    }

    public init(of watch: Watch) { self.init(verdict: watch.verdict, alarm: watch.alarm) }
}
