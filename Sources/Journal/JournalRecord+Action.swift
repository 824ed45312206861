import WatchCore

extension JournalRecord {
    /// The record a WatchCore action leaves in the journal, or nil for actions that leave none
    /// (sounds, chirps, refusals). `now` is the instant the action's event was handled at.
    ///
    /// Alarm changes that an accepted decision already records (arm, disarm, snooze) map to nil:
    /// the decision's record says the same. What remains are the alarm's own moves: a ring
    /// (alarm start) and a snooze that ended with the boat holding (alarm stop).
    public static func from(_ action: Action, at now: Instant) -> JournalRecord? {
        switch action {
        case .accepted(let receipt, _):
            switch receipt.decision {
            case .arm: return .arm
            case .disarm: return .disarm
            case .release: return .release
            case .setRadius(let r): return .radius(r)
            case .snooze(let episode):
                // A snooze of the fault sound answers no alarm: nothing to restore after a restart
                // (the fault sounds again), and a snooze record would ring the episode again.
                if receipt.silencesFault { return nil }
                return .snooze(episode: episode, length: max(.zero, (receipt.until ?? now) - now))
            case .mark(let how):
                // The watch sets the anchor before it accepts a mark; a receipt without one is a bug
                // upstream, and recording a mark with no position would restore nonsense.
                guard let anchor = receipt.anchor else { return nil }
                return .mark(anchor: anchor, how: how)
            }
        case .alarmChanged(let from, let to):
            switch (from, to) {
            case (_, .ringing(let episode)): return .alarmStart(episode: episode)
            case (.snoozed(_, let episode), .armed), (.ringing(let episode), .armed): return .alarmStop(episode: episode)
            default: return nil
            }
        case .verdictChanged(let from, let to):
            if case .cantJudge(let reason) = to { return .verdict(from: from.kind, to: to.kind, reason: reason) }
            return .verdict(from: from.kind, to: to.kind, reason: nil)
        case .faultRaised(let fault):
            return .faultRaised(fault)
        case .faultCleared(let kind):
            return .faultCleared(kind)
        case .track(let reading, let distance):
            return TrackFix(reading, distance: distance).map { .trackFix($0) }
        case .swingLearnt(let memory):
            return .swing(memory)
        case .refused, .alarmSound, .faultSound, .chirp:
            return nil
        }
    }
}

extension TrackFix {
    /// A fix for the track, if the reading has a position.
    public init?(_ reading: GPSReading, distance: Meters?) {
        guard let position = reading.position else { return nil }
        self.init(position: position, accuracy: reading.accuracy, distance: distance)
    }
}
