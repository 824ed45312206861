/// What the watch says now, for every surface: the ring, the snapshot, the demo, replay.
public struct WatchStatus: Hashable, Sendable {
    public var verdict: PositionVerdict
    public var alarm: AlarmState
    public var anchor: Coordinate?
    public var radius: Meters
    /// From the anchor to the last usable fix.
    public var distance: Meters?
    /// Age and accuracy of the last GPS reading, usable or not.
    public var readingAge: Duration?
    public var accuracy: Meters?
    public var wontRing: String
    public var faults: [Fault]
    public var faultSounding: Bool
    /// Where the boat (its GPS antenna) is: the last usable reading.
    public var boat: Coordinate? = nil
    /// The farthest the boat was from the mark since it was set.
    public var farthest: Meters? = nil
    /// The anchor learnt from the swing, the move it offers (apart from the mark), and the
    /// alert radius it suggests about the mark as it would stand after the offer.
    public var swing: SwingEstimate? = nil
    public var swingOffer: SwingOffer? = nil
    public var suggestedRadius: Meters? = nil
}

extension Watch {
    public func status(at now: Instant) -> WatchStatus {
        var distance: Meters?
        if let anchor, let p = lastUsable?.position { distance = Geodesy.distance(anchor, p) }
        return WatchStatus(
            verdict: verdict,
            alarm: alarm,
            anchor: anchor,
            radius: radius,
            distance: distance,
            readingAge: lastReading.map { now - $0.received },
            accuracy: lastReading?.accuracy,
            wontRing: Copy.wontRing(verdict: verdict, alarm: alarm, now: now),
            faults: faults.values.sorted { $0.kind < $1.kind },
            faultSounding: faultSounding,
            boat: lastUsable?.position,
            farthest: anchor == nil ? nil : farthest,
            swing: anchor == nil ? nil : swing.estimate,
            swingOffer: swingOffer,
            suggestedRadius: swingSuggestedRadius
        )
    }
}
