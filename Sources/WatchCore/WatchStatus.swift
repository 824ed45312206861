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
            faultSounding: faultSounding
        )
    }
}
