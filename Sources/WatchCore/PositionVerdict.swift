/// What the evidence says about the boat, decided without the alarm (the "two classifiers"
/// conflict resolves to position for the ring's colour and the status words).
public enum PositionVerdict: Hashable, Sendable {
    case noAnchor
    case holding
    /// Most recent fixes lie outside the alert radius; `progress` in 0...1 fills toward the siren.
    case checking(progress: Double)
    case dragging
    case cantJudge(CantJudgeReason)

    /// The verdict without its payload, for "did it change" and for records.
    public var kind: Kind {
        switch self {
        case .noAnchor: .noAnchor
        case .holding: .holding
        case .checking: .checking
        case .dragging: .dragging
        case .cantJudge: .cantJudge
        }
    }

    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case noAnchor = "no_anchor"
        case holding
        case checking
        case dragging
        case cantJudge = "cant_judge"
    }
}

/// Why the box can't judge a drag. Unknown is its own state, never holding.
public enum CantJudgeReason: String, Hashable, Sendable, CaseIterable {
    /// Nothing heard from the GPS since start (or since the anchor was marked).
    case noReading = "no_reading"
    /// The receiver reports, but without a 2D/3D fix.
    case noFix = "no_fix"
    /// The last usable fix is older than the staleness limit.
    case stale
    /// Fixes arrive, but their accuracy is too poor for the alert radius.
    case poorAccuracy = "poor_accuracy"
    /// Fixes arrive, but jump further than a boat can move: a receiver gone mad.
    case implausible
    /// Too few usable fixes of late to say the boat is holding (after a gap, a restart, a mark).
    case tooFewReadings = "too_few_readings"
}
