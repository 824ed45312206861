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

    /// Scaling of a poor receiver's residuals: the 95th percentile of the scaled piece lands
    /// uniformly in this range.
    static let poorWander: ClosedRange<Double> = 15...20

    var label: String { "\(quality.rawValue) \(rate) Hz" }

    static func good(_ rate: Int) -> ReceiverProfile { ReceiverProfile(quality: .good, rate: rate, gapsPerHour: 1) }
    static func poor(_ rate: Int) -> ReceiverProfile { ReceiverProfile(quality: .poor, rate: rate, gapsPerHour: 3) }
}
