/// The watch's side of the swing estimate: what it learns from, when it forgets, what it offers.
/// The mark moves only on a decision (`MarkRequest.fromSwing`, or the button while an offer
/// stands), never by itself.
extension Watch {
    /// A usable reading while an anchor is marked: the swing learns from it, and the farthest
    /// distance from the mark grows.
    /// What the swing has learnt is handed on to be kept when it is due (`SwingEstimator.saveDue`).
    /// The wander shown changing (first measured, or a metre more or less) is due too, at most a
    /// minute after the last: the journal keeps the wander the box says. So is a quick
    /// excursion that reached a metre further, or an outing 5 s longer, than those kept: a
    /// restart judges with the excursions it had seen.
    mutating func learnSwing(_ position: Coordinate, distance: Meters, at now: Instant, into out: inout [Action]) {
        swing.add(position, at: now)
        let shown = wanderShown
        let grew = noise.wanderReach > excursionsSaved.reach + 1 || noise.outingLongest > excursionsSaved.outing + 5
        let wanderDue = (shown != wanderSaved || grew) && wanderSavedAt.map { now - $0 >= .seconds(60) } ?? true
        if swing.saveDue || wanderDue, let memory = swingMemory(at: now) {
            out.append(.swingLearnt(memory))
            swing.saved(at: now)
            wanderSaved = shown
            wanderSavedAt = now
            excursionsSaved = (noise.wanderReach, noise.outingLongest)
        }
        farthest = max(farthest ?? distance, distance)
        if let e = swing.estimate, e.settled {
            // On the circle the fit covered, the antenna lies within its spread of the radius;
            // the centre's uncertainty counts half (the fit places the arc it saw better than
            // the centre). A boat motoring to a new anchor crosses inside or beyond that band.
            let off = Geodesy.distance(position, e.centre).value - e.swingRadius.value
            if abs(off) > 2 * e.spread.value + e.uncertainty.value / 2 { offSwingAt = now }
        }
    }

    /// What the swing has learnt about the anchor and the receiver's wander measured about it,
    /// as of `now`, to be kept across a restart (`Action.swingLearnt`, the journal's swing
    /// record; `restore(...swing:...)` brings both back). Nil before the swing's first reading.
    public func swingMemory(at now: Instant) -> SwingEstimator.Memory? {
        guard var memory = swing.memory(at: now) else { return nil }
        if anchor != nil { memory.wander = noise.memory }
        return memory
    }

    /// The wander as the status shows it, in whole metres.
    var wanderShown: Int? { wander.map { Int($0.value.rounded()) } }

    /// A new mark: the farthest distance starts again. The swing learnt so far is kept when the
    /// boat still lies to the same anchor (a mark from the swing, or a correction that lands
    /// inside the swing circle seen), and starts again otherwise (a new anchorage).
    mutating func swingMarked(_ request: MarkRequest, old: Coordinate?, new: Coordinate) {
        farthest = nil
        if request == .fromSwing { return }
        swing.newMark(new, replacing: old)
    }

    /// Why a mark from the swing can't be taken now, or nil.
    func swingRefusal() -> Refusal? {
        guard let e = swing.estimate, e.settled else { return .swingUnsettled }
        if e.moving { return .swingMoving }
        return e.stable ? nil : .swingUnsettled
    }

    /// The move the swing offers: it has settled, its centre has stayed put for a while
    /// (stable), and it lies clearly apart from the mark (further than twice its uncertainty,
    /// and at least 10 m).
    public var swingOffer: SwingOffer? {
        guard let anchor, let e = swing.estimate else { return nil }
        return SwingOffer(mark: anchor, e)
    }

    /// A long press marks the anchor, not the boat, only when the box is sure the boat still
    /// lies to the anchor the swing found: the swing offers a move, the boat lies within the
    /// swing circle seen, and every fix of the last `movingSpan` (15 minutes) lay on that circle.
    /// Otherwise (no offer, the boat has left that anchor, or it has just motored: a re-anchoring
    /// nearby without a release) it marks the boat's position, as at a drop.
    func buttonMark(at now: Instant) -> MarkRequest {
        guard let offer = swingOffer, let here = hereFix(at: now) else { return .here }
        if let off = offSwingAt, now - off < swing.settings.movingSpan { return .here }
        let e = offer.estimate
        return Geodesy.distance(here, e.centre) <= e.farthest + e.uncertainty ? .fromSwing : .here
    }
}

/// A move of the mark the swing suggests, for the skipper to accept or not.
public struct SwingOffer: Hashable, Sendable {
    public var estimate: SwingEstimate
    /// From the mark to the swing's centre.
    public var distance: Meters
    public var bearing: Double

    /// The offer `estimate` makes against `mark`, if any: stable, and clearly apart.
    public init?(mark: Coordinate, _ estimate: SwingEstimate) {
        guard estimate.stable else { return nil }
        let d = Geodesy.distance(mark, estimate.centre)
        guard d.value > max(10, 2 * estimate.uncertainty.value) else { return nil }
        self.estimate = estimate
        distance = d
        bearing = Geodesy.bearing(from: mark, to: estimate.centre)
    }

    /// "The anchor seems to lie 28 m north-west of the mark, give or take 4 m".
    public var says: String {
        "The anchor seems to lie \(distance) \(Compass.point(bearing)) of the mark, give or take \(estimate.uncertainty)"
    }
}

/// Eight compass points in words, for a skipper's sentence.
public enum Compass {
    public static func point(_ bearing: Double) -> String {
        let names = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"]
        var b = bearing.truncatingRemainder(dividingBy: 360)
        if b < 0 { b += 360 }
        return names[Int(((b + 22.5) / 45).rounded(.down)) % 8]
    }
}

extension Watch {
    /// With the swing settled and still: the alert radius that holds the swing seen plus the
    /// receiver's measured wander, about the mark as it will stand (the swing's centre once the offer is taken, the mark otherwise).
    /// Where the radius advice asks more about the same mark (no offer), its number: one number
    /// on one screen (`reliableRadius` takes this one where it is the larger).
    public var swingSuggestedRadius: Meters? {
        guard let own = swingOwnRadius else { return nil }
        if swingOffer == nil, let n = wanderReliableRadius, n > own { return n }
        return own
    }

    var swingOwnRadius: Meters? {
        guard let anchor, let e = swing.estimate, e.stable else { return nil }
        // The receiver's wander as the detector measured it, where it has; else the spread
        // about the circle stands in for it.
        let radius = e.suggestedRadius(wander: wander)
        if swingOffer != nil { return radius }
        return Meters((radius.value + Geodesy.distance(anchor, e.centre).value).rounded(.up))
    }
}

extension WatchStatus {
    /// A status from its parts, for surfaces that rebuild one from what the box wrote (the
    /// live view draws the ring from the snapshot).
    public init(
        verdict: PositionVerdict, alarm: AlarmState, anchor: Coordinate?, radius: Meters, distance: Meters?,
        readingAge: Duration?, accuracy: Meters?, wontRing: String, faults: [Fault], faultSounding: Bool
    ) {
        self.verdict = verdict
        self.alarm = alarm
        self.anchor = anchor
        self.radius = radius
        self.distance = distance
        self.readingAge = readingAge
        self.accuracy = accuracy
        self.wontRing = wontRing
        self.faults = faults
        self.faultSounding = faultSounding
    }
}
