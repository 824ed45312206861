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
    /// The receiver's measured wander (two of the watch's noise units), once measured.
    public var wander: Meters? = nil
    /// Set when that wander is too large for the margin between the swing and the alert radius:
    /// the line that says so, with the radius that would ring reliably.
    public var radiusAdvice: String? = nil
    /// Once the wander is measured: how far beyond the alert radius this receiver rings
    /// (`Watch.ringsBeyond`); its words are `ringDistance`, made where they are shown.
    public var ringsBeyond: Meters? = nil
    /// Set when the receiver's quick excursions, not its wander, set that distance: how far
    /// they have run out from where the boat lies (`Watch.ringsBeyondForExcursions`).
    public var excursions: Meters? = nil
    /// Once the wander is measured: how long every steady fix must stand beyond the alert radius
    /// before they count from the radius itself (`Watch.ringsAfter`, persistence).
    public var ringsAfter: Duration? = nil
    /// Set while the latest reading's accuracy is too poor for the alert radius: the smallest
    /// alert radius it can judge.
    public var judgeableRadius: Meters? = nil
    /// Why the GPS gives no usable position now, anchor or not (no reading yet, no fix, an old
    /// reading, an accuracy too poor for the alert radius); nil while it does.
    public var gpsUnusable: CantJudgeReason? = nil
    /// While the GPS-lost fault is up: its cause, how long since the last usable reading, the
    /// smallest radius the receiver can judge (`gpsLostText` words it; a reader in another
    /// process says how long as of when it reads).
    public var gpsLost: GPSLost? = nil
}

/// The GPS-lost fault as of a moment: why the watch can't judge, for how long, and (for a poor
/// accuracy) the smallest alert radius this receiver can judge.
public struct GPSLost: Hashable, Sendable {
    public var reason: CantJudgeReason
    public var lost: Duration
    public var judgeable: Meters?

    public init(reason: CantJudgeReason, lost: Duration, judgeable: Meters?) {
        self.reason = reason
        self.lost = lost
        self.judgeable = judgeable
    }

    /// The fault's words for this long (`Words.gpsFault`).
    public func words(radius: Meters) -> String {
        Words.gpsFault(reason, for: lost, radius: radius, judgeable: judgeable)
    }
}

extension WatchStatus {
    /// While the GPS-lost fault is up: its words as of now, saying how long since the last
    /// usable reading (the fault's `message` keeps the words it was raised with).
    public var gpsLostText: String? { gpsLost?.words(radius: radius) }

    /// How far beyond the alert radius this receiver rings, in words, once its wander is measured.
    public var ringDistance: String? {
        ringsBeyond.flatMap { b in wander.map { Words.ringDistance(beyond: b, radius: radius, wander: $0, excursions: excursions, after: ringsAfter) } }
    }
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
            wontRing: Words.wontRing(verdict: verdict, alarm: alarm, now: now),
            faults: faults.values.sorted { $0.kind < $1.kind },
            faultSounding: faultSounding,
            boat: lastUsable?.position,
            farthest: anchor == nil ? nil : farthest,
            swing: anchor == nil ? nil : swing.estimate,
            swingOffer: swingOffer,
            suggestedRadius: swingSuggestedRadius,
            wander: wander,
            radiusAdvice: reliableRadius.flatMap { r in wander.map { Words.radiusAdvice(wander: $0, reliable: r) } },
            ringsBeyond: ringsBeyond,
            excursions: ringsBeyondForExcursions,
            ringsAfter: ringsAfter,
            judgeableRadius: accuracyTooPoor(for: radius, at: now).flatMap(smallestJudgeableRadius),
            gpsUnusable: gpsUnusable(at: now),
            gpsLost: gpsLost(at: now)
        )
    }

    /// Measuring the wander takes this long after a mark before it is reported or advised on.
    public static let wanderMeasuredAfter: Double = 300

    /// The receiver's wander as measured since the anchor was marked: twice the noise unit the
    /// evidence is counted in (about the 95th percentile of its radial error).
    public var wander: Meters? { adviceSigma.map { Meters(2 * $0) } }

    /// The noise unit the advice is about, once measured for `wanderMeasuredAfter` since the
    /// mark: the receiver's wander, or its weak fixes' where it has had a minute of them and they
    /// wander further (a receiver with 2D stretches needs the margin for them too).
    private var adviceSigma: Double? {
        guard anchor != nil, noise.measuredFor >= Self.wanderMeasuredAfter else { return nil }
        return noise.sigma(settings) * (noise.weakFor >= 60 ? noise.weakScale : 1)
    }

    /// The alert radius that would ring reliably, when the current one is smaller: the swing as
    /// measured plus `reliableMargin` noise units, up to the next 5 m. Advice only; the watch
    /// never widens the radius itself.
    public var reliableRadius: Meters? {
        guard let n = wanderReliableRadius else { return nil }
        // One number on one screen: the swing's suggestion about this mark, where it asks more.
        if swingOffer == nil, let s = swingOwnRadius, s > n { return s }
        return n
    }

    /// How far beyond the alert radius this receiver's wander lets the boat stand before the
    /// evidence adds up, once the wander is measured: `deadband` noise units, where a fix beyond
    /// the radius counts (on position alone) in at least the quick excursions' reach over
    /// `wanderTail`, as the evidence does (`Watch.credit`).
    public var ringsBeyond: Meters? {
        guard let sigma = adviceSigma else { return nil }
        return Meters((settings.deadband * max(sigma, excursionUnit)).rounded())
    }

    /// How long the steady fixes must stand beyond the alert radius (a second inside taking
    /// `persistGive` back) before they count from the radius itself (`Watch.persists`):
    /// `persistFloor`, or `persistMargin` times the longest quick outing the receiver has shown,
    /// up to the next 5 s. A boat that stays beyond rings a
    /// few seconds after, however short of `ringsBeyond` it stands.
    public var ringsAfter: Duration? {
        guard adviceSigma != nil else { return nil }
        let need = max(settings.persistFloor.seconds, settings.persistMargin * noise.outingLongest)
        return .seconds((need / 5).rounded(.up) * 5)
    }

    /// The quick excursions' reach, rounded, when it (not the wander) sets `ringsBeyond`.
    public var ringsBeyondForExcursions: Meters? {
        guard let sigma = adviceSigma, excursionUnit > sigma else { return nil }
        return Meters(noise.wanderReach.rounded())
    }

    /// The noise unit a fix beyond the radius counts in for the excursions' reach (0 with that
    /// guard off, as in the evidence).
    private var excursionUnit: Double {
        settings.guardsOff.contains(.wanderReach) ? 0 : noise.wanderReach / settings.wanderTail
    }

    /// The radius the wander alone asks for (the swing as measured plus `reliableMargin`
    /// noise units, up to the next 5 m), when the current one is smaller.
    var wanderReliableRadius: Meters? {
        guard let sigma = adviceSigma else { return nil }
        let needed = noise.swing + settings.reliableMargin * sigma
        guard needed > radius.value else { return nil }
        return Meters(min((needed / 5).rounded(.up) * 5, settings.radiusRange.upperBound))
    }
}
