/// What kind of GPS the boat carries in a simulated run.
struct ReceiverProfile: Hashable, Sendable {
    enum Quality: String, Hashable, Sendable {
        /// The real captures' residuals as recorded: a few meters of wander.
        case good
        /// The same residuals scaled so the receiver wanders 15 to 20 m (95th percentile) for
        /// minutes at a time: an old receiver or a badly placed antenna.
        case poor
    }

    var quality: Quality
    /// Fixes per second (1 or 10).
    var rate: Int
    /// Gaps per hour (no fix reported, or gpsd's mode 1 reports) and whether they happen at all.
    var gapsPerHour: Double
    /// Whether the reported accuracy (eph) grows with the receiver's wander (the model: with the
    /// square root of the scale). False: a poor receiver that reports a good one's eph, the case
    /// that would defeat an accuracy-weighted rule (the robustness check).
    var ephFollowsNoise = true
    /// A receiver built from first principles (`ReceiverModel`) instead of the captures' noise:
    /// its position error, its speed error and how they move together.
    var model: ReceiverModel? = nil

    /// Scaling of a poor receiver's residuals: the 95th percentile of the scaled piece lands
    /// uniformly in this range.
    static let poorWander: ClosedRange<Double> = 15...20

    var label: String {
        if let model { return "\(model.name) \(rate) Hz" }
        return "\(quality.rawValue) \(rate) Hz" + (ephFollowsNoise ? "" : ", good eph")
    }

    static func good(_ rate: Int) -> ReceiverProfile { ReceiverProfile(quality: .good, rate: rate, gapsPerHour: 1) }
    static func poor(_ rate: Int) -> ReceiverProfile { ReceiverProfile(quality: .poor, rate: rate, gapsPerHour: 3) }
    /// The poor receiver's very noise, gaps and seeds, reporting the good receiver's eph.
    static func poorGoodEph(_ rate: Int) -> ReceiverProfile {
        ReceiverProfile(quality: .poor, rate: rate, gapsPerHour: 3, ephFollowsNoise: false)
    }

    /// A receiver of `model`, with the poor receiver's gaps.
    static func modelled(_ model: ReceiverModel, _ rate: Int = 1) -> ReceiverProfile {
        ReceiverProfile(quality: .poor, rate: rate, gapsPerHour: 3, model: model)
    }

    /// The seed tag of this receiver's runs: the good-eph variant shares the poor one's, so both
    /// replay the very same wander.
    var seedTag: UInt64 { UInt64(rate) << 8 | (model?.tag ?? (quality == .good ? 1 : 2)) }
}
