/// An input that changes what the box guards. Only the journal's durable record resolves it:
/// the shell confirms an accepted decision (chirp, receipt) after the record is synced.
public enum Decision: Hashable, Sendable {
    case arm
    case disarm
    case mark(MarkRequest)
    case release
    /// Names the alarm episode it answers; refused for any other.
    case snooze(episode: Int)
    case setRadius(Meters)

    public var name: String {
        switch self {
        case .arm: "arm"
        case .disarm: "disarm"
        case .mark: "mark"
        case .release: "release"
        case .snooze: "snooze"
        case .setRadius: "radius"
        }
    }
}

public enum MarkRequest: Hashable, Sendable {
    /// Where the boat is now: the mean of the last few good fixes.
    case here
    /// A bearing (degrees true) and distance from where the boat is now.
    case offset(bearing: Double, distance: Meters)
    /// A known position (for example where the boat was some time ago, from the journal's track).
    case at(Coordinate)
    /// The centre of the swing the watch has learnt (`SwingEstimator`): refused until it has
    /// settled and while it moves. The skipper's decision, never the watch's.
    case fromSwing
}

/// Why a decision was refused, with the one line the skipper reads.
public enum Refusal: String, Hashable, Sendable, CaseIterable {
    case noAnchor = "no_anchor"
    case armedRelease = "armed_release"
    case armedMark = "armed_mark"
    case noGoodFix = "no_good_fix"
    case wrongEpisode = "wrong_episode"
    case notRinging = "not_ringing"
    case radiusOutOfRange = "radius_out_of_range"
    case markTooFar = "mark_too_far"
    /// A mark from the swing before the swing has shown where the anchor is.
    case swingUnsettled = "swing_unsettled"
    /// A mark from the swing while its centre moves (a drag moves it too).
    case swingMoving = "swing_moving"
}

/// What an accepted decision changed, for the receipt and the journal.
public struct Receipt: Hashable, Sendable {
    public var decision: Decision
    public var anchor: Coordinate?
    public var radius: Meters
    public var alarm: AlarmState
    /// The snooze's end, for a snooze.
    public var until: Instant?
    /// For a new alert radius smaller than the latest reading's accuracy can judge: the smallest
    /// radius it can (`Watch.smallestJudgeableRadius`).
    public var judgeable: Meters? = nil

    /// A snooze that silenced the fault sound for a while, not an alarm (no alarm rang, or the
    /// one rung was already snoozed): it answers no episode and leaves no record.
    public var silencesFault = false
}
