/// The anchor watch: a value that turns readings, the switch, the button, decisions and time
/// into a position verdict, an alarm state and actions for the shell. Pure: no clock, no I/O.
public struct Watch: Sendable {
    public private(set) var settings: WatchSettings
    public private(set) var anchor: Coordinate?
    public private(set) var radius: Meters
    public private(set) var verdict: PositionVerdict = .noAnchor
    public private(set) var alarm: AlarmState = .off
    /// The last alarm episode number handed out; a new ring is `lastEpisode + 1`.
    public private(set) var lastEpisode = 0
    /// Active faults by kind, and the kinds whose sound the skipper has silenced.
    public private(set) var faults: [FaultKind: Fault] = [:]
    public private(set) var acknowledgedFaults: Set<FaultKind> = []
    /// A snooze that silenced the fault sound (no alarm ringing): until when, and the kinds it
    /// silenced. When it ends, those still active sound again.
    public private(set) var faultSnoozeUntil: Instant?
    private var faultSnoozed: Set<FaultKind> = []
    /// Where the physical switch is, once known.
    public private(set) var switchOn: Bool?

    public private(set) var lastReading: GPSReading?
    /// The anchor learnt from the swing, and the farthest the boat was from the mark since it
    /// was set (Watch+Swing.swift).
    public internal(set) var swing = SwingEstimator()
    public internal(set) var farthest: Meters?
    /// The last fix that lay off the settled swing's circle (Watch+Swing.swift): until the
    /// swing's `movingSpan` has passed since, the box is not sure the boat lies to that anchor.
    var offSwingAt: Instant?
    /// The wander shown when a swing memory was last handed on to be kept, and when
    /// (Watch+Swing.swift, `learnSwing`).
    var wanderSaved: Int?
    var wanderSavedAt: Instant?
    /// The excursion reach (m) and longest quick outing (s) last handed on to be kept.
    var excursionsSaved = (reach: 0.0, outing: 0.0)
    public private(set) var lastUsable: GPSReading?
    /// Why the most recent reading was not usable; nil when it was.
    private var lastRejection: CantJudgeReason?
    /// Usable fixes of the last `markSpan`, newest last: what a mark averages.
    private var recentFixes: [GPSReading] = []
    /// Usable fixes of the last `window` with their distance to the anchor, oldest first from
    /// `samplesHead` (a queue, so a fix costs the same however many the window holds): what
    /// Holding needs enough of, and what a new alert radius is judged again on.
    private var samples: [Sample] = []
    private var samplesHead = 0
    /// How many of the window's samples stand beyond the alert radius: the fixes that say the
    /// boat is outside (Watch+Inside.swift).
    var beyondInWindow = 0
    /// How many of the newest samples in a row stand beyond it.
    var beyondRun = 0
    /// The evidence that the boat stands beyond the alert radius (Docs/verdict.md), in seconds
    /// of one wander beyond the deadband, as of the fix at `evidenceAt`.
    private var evidence = 0.0
    private var evidenceAt: Instant?
    /// A run of steady fixes beyond the alert radius has started (persistence).
    private var persistRunning = false
    /// The run's seconds beyond the alert radius, less `persistGive` times its seconds inside
    /// (persistence; read by the benchmark's traces).
    public private(set) var persistRun = 0.0
    /// The run's own time since it started (inside seconds too), and how far the receiver's
    /// speed carried the boat away from the anchor over it (the readings' radial speed, the
    /// median of three, times the time): a run the speed saw as the boat moving away.
    private var runClock = 0.0
    private var runAway = 0.0
    /// The run's fixes' distances, summed over its seconds: their mean is where the run stands.
    private var runDistance = 0.0
    private var runSeconds = 0.0
    /// How far the readings' speed has carried the boat away from the anchor since it was
    /// marked (the median of three's radial speed times the seconds, m), and the fixes' trail:
    /// every `trailStep` a fix's distance beside that sum, oldest first, at most `trailKept` of
    /// them. What a persistence run's speed is held to: it must account for the fixes' rise.
    private var awayTotal = 0.0
    private var trail: [TrailPoint] = []
    static let trailStep = 5.0
    static let trailKept = 24

    struct TrailPoint: Hashable, Sendable {
        var at: Instant
        var distance: Double
        var away: Double
    }
    /// A fix leapt from the last one while the receiver's trusted speed said the boat stayed
    /// (`leapt`), and no fix has stood inside the alert radius since: beyond it the fixes count
    /// only once persistent, or with the Doppler.
    public private(set) var afterJump = false
    /// The receiver's measured wander.
    public private(set) var noise = NoiseEstimate()
    /// Can't-judge time less judged time while armed (never below zero), when it was last
    /// brought up to date, and since when the watch has judged without a break.
    private var gpsDebt: Duration = .zero
    private var gpsDebtAt: Instant?
    private var judgedSince: Instant?
    /// The GPS-lost fault the watch raised: when, and the words it was raised with, so its
    /// text can say how long the GPS has been lost as time goes on (`gpsLost(at:)`).
    private var gpsLostRaised: (fault: Fault, at: Instant, reason: CantJudgeReason, judgeable: Meters?)?

    struct RadialFix: Hashable, Sendable {
        var at: Instant
        var distance: Double
    }

    /// A holding fix's place, meters east and north of the anchor.
    struct PlacedFix: Hashable, Sendable {
        var at: Instant
        var east: Double
        var north: Double
    }

    struct Sample: Hashable, Sendable {
        var at: Instant
        var distance: Double
        var accuracy: Double
        /// 1 for a 3D fix with a reported accuracy, `weakWeight` otherwise.
        var weight: Double
        /// This fix's wander as a multiple of the receiver's measured one: more than 1 for a 2D
        /// fix of a receiver whose 2D fixes wander more, or one whose reported accuracy is worse
        /// than the receiver's usual.
        var scale: Double
        /// The reported speed over ground carried the boat away from the anchor when it came.
        var moving: Bool
        /// A weak fix (2D, or without a reported accuracy) of a receiver whose fixes are mostly
        /// strong: judged with `weakDeadband`.
        var widened: Bool
        /// It stood beyond the alert radius when it came: it says the boat is outside.
        var beyond = false
        /// The receiver's excursion reach when it came (`NoiseEstimate.wanderReach`, m; 0 with
        /// its guard off).
        var reach = 0.0
        /// A 3D fix of the receiver's usual accuracy (no 2D stretch, no burst): what a
        /// persistence run is made of.
        var steady = false
        /// The longest quick outing the receiver had shown when it came (`NoiseEstimate.outingLongest`).
        var outing = 0.0
        /// The readings' radial speed when it came (the median of the last three, m/s, away
        /// from the anchor positive; 0 without a speed).
        var away = 0.0
        /// The Doppler said the boat moves away but for its falling speed: a fix beyond the
        /// radius takes no evidence away.
        var slowed = false
    }

    public init(settings: WatchSettings = WatchSettings()) {
        self.settings = settings
        self.radius = settings.radius
    }

    // MARK: - Events

    /// Handles one event at `now` and returns what the shell must do, in order.
    ///
    /// Ordering contract: `.alarmSound(on: true)` is returned as soon as the alarm starts and the
    /// shell sounds it at once, before any journal write. `.accepted` decisions are confirmed
    /// (chirp, receipt) only after the shell has made their record durable.
    public mutating func handle(_ event: Event, at now: Instant) -> [Action] {
        var out: [Action] = []
        switch event {
        case .reading(let reading):
            take(reading, at: now, into: &out)
        case .armSwitch(let on):
            switchOn = on
            apply(on ? .arm : .disarm, at: now, into: &out)
        case .button(let press):
            pressed(press, at: now, into: &out)
        case .decision(let decision):
            apply(decision, at: now, into: &out)
        case .faultRaised(let fault):
            raise(fault, into: &out)
        case .faultCleared(let kind):
            clear(kind, into: &out)
        case .tick:
            break
        }
        reassess(at: now, into: &out)
        return out
    }

    /// `restore(anchor:radius:armed:ringingEpisode:lastEpisode:farthest:at:)`, and what the
    /// swing had learnt about that anchor (the journal keeps it: `Action.swingLearnt`), so the
    /// swing's line and offer survive a restart. Ignored without an anchor.
    public mutating func restore(
        anchor: Coordinate?, radius: Meters, armed: Bool, ringingEpisode: Int?, lastEpisode: Int,
        farthest: Meters?, swing memory: SwingEstimator.Memory?, at now: Instant
    ) -> [Action] {
        swing.reset()
        offSwingAt = nil
        if anchor != nil, let memory {
            swing.restore(memory, at: now)
            if let wander = memory.wander { noise.restore(wander, outingBound: settings.wanderOutingSpan.seconds) }
        }
        let actions = restore(anchor: anchor, radius: radius, armed: armed, ringingEpisode: ringingEpisode,
                       lastEpisode: lastEpisode, farthest: farthest, at: now)
        wanderSaved = wanderShown
        wanderSavedAt = now
        excursionsSaved = (noise.wanderReach, noise.outingLongest)
        return actions
    }

    /// `restore(anchor:radius:armed:ringingEpisode:lastEpisode:at:)`, and the farthest the boat
    /// was from that anchor before the restart (the journal keeps it), so "farthest tonight"
    /// survives a restart. Ignored without an anchor.
    public mutating func restore(
        anchor: Coordinate?, radius: Meters, armed: Bool, ringingEpisode: Int?, lastEpisode: Int,
        farthest: Meters?, at now: Instant
    ) -> [Action] {
        self.farthest = anchor == nil ? nil : farthest
        return restore(anchor: anchor, radius: radius, armed: armed, ringingEpisode: ringingEpisode,
                       lastEpisode: lastEpisode, at: now)
    }

    /// Rebuilds the watch from the journal after a restart. A ringing (or snoozed) alarm rings
    /// again at once: the monotonic clock restarted, so a snooze's end can't be trusted.
    public mutating func restore(
        anchor: Coordinate?, radius: Meters, armed: Bool, ringingEpisode: Int?, lastEpisode: Int,
        at now: Instant
    ) -> [Action] {
        self.anchor = anchor
        self.radius = radius
        self.lastEpisode = max(lastEpisode, ringingEpisode ?? 0)
        var out: [Action] = []
        let old = alarm
        if let episode = ringingEpisode, anchor != nil {
            alarm = .ringing(episode: episode)
        } else if armed, anchor != nil {
            alarm = .armed
        } else {
            alarm = .off
        }
        if old != alarm { out.append(.alarmChanged(from: old, to: alarm)) }
        if case .ringing = alarm { out.append(.alarmSound(on: true)) }
        reassess(at: now, into: &out)
        return out
    }

    /// The next instant at which time alone could change something (staleness, the end of a
    /// snooze, the GPS grace period, checking's progress). The shell arms its one timer for it.
    public func nextDeadline(after now: Instant) -> Instant? {
        var next: Instant?
        func consider(_ t: Instant?) {
            guard let t, t > now else { return }
            next = next.map { min($0, t) } ?? t
        }
        if let usable = lastUsable, anchor != nil {
            consider(usable.received + settings.staleAfter + .milliseconds(1))
        }
        // The window matters only when it would hold too few fixes: wake when the fix whose
        // leaving takes the count below `min_fixes` leaves (not at every fix's leaving, which at
        // 10 Hz was most of the loop's wakeups).
        let inWindow = samples.count - samplesHead, least = max(settings.minFixes, 1)
        if inWindow >= least {
            consider(samples[samplesHead + inWindow - least].at + settings.window + .milliseconds(1))
        }
        if verdict.kind == .checking {
            // Progress is drawn on the ring: wake once a second while checking.
            consider(now + .seconds(1))
        }
        if case .snoozed(let until, _) = alarm { consider(until) }
        consider(faultSnoozeUntil)
        if alarm.isArmed, faults[.gpsLost] == nil, verdict.kind == .cantJudge {
            consider(now + (settings.gpsGrace - gpsDebt) + .milliseconds(1))
        }
        if alarm.isArmed, faults[.gpsLost] != nil, let since = judgedSince {
            consider(since + Self.gpsClearAfter)
        }
        return next
    }

    // MARK: - Readings

    private mutating func take(_ reading: GPSReading, at now: Instant, into out: inout [Action]) {
        lastReading = reading
        guard reading.mode != .noFix, let position = reading.position else {
            lastRejection = .noFix
            return
        }
        if let accuracy = reading.accuracy, accuracy.value > accuracyLimit.value {
            lastRejection = .poorAccuracy
            return
        }
        if let previous = lastUsable, let from = previous.position {
            let dt = max((reading.received - previous.received).seconds, 0)
            let step = Geodesy.distance(from, position).value
            guard plausible(step: step, dt: dt, previous, reading) else {
                lastRejection = .implausible
                return
            }
            if leapt(step: step, dt: dt, from: from, reading) { afterJump = true }
        }
        lastRejection = nil
        lastUsable = reading
        recentFixes.append(reading)
        recentFixes.removeAll { reading.received - $0.received > max(settings.markSpan, settings.window) }
        if recentFixes.count > 64 { recentFixes.removeFirst(recentFixes.count - 64) }

        var distance: Meters?
        if let anchor {
            let d = Meters(addSample(reading, at: position, from: anchor))
            distance = d
            learnSwing(position, distance: d, at: reading.received, into: &out)
        }
        out.append(.track(reading, distance: distance))
    }

    /// The reported velocity's component along the line from the anchor to the boat, m/s
    /// (positive away); nil when the reading has no speed or the boat is on the anchor.
    /// A radial speed faster than `doppler_plausible` either way is no boat on a rode: no speed.
    /// (Only the component along the line counts: a boat sailing on its anchor crosses that line
    /// fast, but no rode lets it move away or toward the anchor that fast.)
    private func radialSpeed(_ reading: GPSReading, east: Double, north: Double, distance: Double) -> Double? {
        guard let speed = reading.speed else { return nil }
        if speed == 0 { return 0 }
        guard let track = reading.track, distance >= 1 else { return nil }
        let radial = speed * (sinDeg(track) * east + cosDeg(track) * north) / distance
        if abs(radial) > settings.dopplerPlausible, !settings.guardsOff.contains(.dopplerOneReading) { return nil }
        return radial
    }

    /// The accuracy worse than which a fix is no evidence at the current alert radius.
    public var accuracyLimit: Meters { radius * settings.accuracyLimitFraction }

    /// The smallest whole-meter alert radius at which a fix of this accuracy is evidence (the
    /// inverse of `accuracyLimit`), within the radius range; nil when no radius in range can.
    public func smallestJudgeableRadius(accuracy: Meters) -> Meters? {
        guard accuracy.value.isFinite, settings.accuracyLimitFraction > 0 else { return nil }
        let least = max((accuracy.value / settings.accuracyLimitFraction).rounded(.up), settings.radiusRange.lowerBound.rounded(.up))
        return least <= settings.radiusRange.upperBound ? Meters(least) : nil
    }

    /// The latest reading's accuracy, when it is recent and too poor for `radius`.
    func accuracyTooPoor(for radius: Meters, at now: Instant) -> Meters? {
        guard let r = lastReading, r.mode != .noFix, r.position != nil, now - r.received <= settings.staleAfter,
            let accuracy = r.accuracy, accuracy.value > radius.value * settings.accuracyLimitFraction
        else { return nil }
        return accuracy
    }

    /// A step of `step` m in `dt` s from `previous` to `reading` that a boat could make.
    private func plausible(step: Double, dt: Double, _ previous: GPSReading, _ reading: GPSReading) -> Bool {
        let slack: Double = 3 * ((previous.accuracy?.value ?? 10) + (reading.accuracy?.value ?? 10)) + 25
        return step <= settings.maxPlausibleSpeed * dt + slack
    }

    /// A step of `step` m from the last usable fix at `from`, `dt` s before (up to
    /// `leapWithin`), that no boat makes, while the receiver's speed says the boat is not moving
    /// away (it stands below the bar it would clear to hasten a drag, smoothed and in this
    /// reading): farther than `jumpSpeed` over the time between plus `jumpSlack` times the
    /// receiver's step as measured at anchor (`NoiseEstimate.leapAllowance`). The step is
    /// physics, and the speed only has to fail to see it: a speed worked out from positions, or
    /// one that moves with the position, sees a leap as the boat moving and so never calls it
    /// one. So the speed needn't have earned its trust first (`WatchGuard.jumpsUntrusted`):
    /// before it has, the bar is the Doppler's own (`dopplerMinimum`, `dopplerThreshold` times
    /// its spread), after, the trusted one as well.
    private func leapt(step: Double, dt: Double, from: Coordinate, _ reading: GPSReading) -> Bool {
        guard let anchor, !settings.guardsOff.contains(.jumps), dt <= Self.leapWithin.seconds,
              step > noise.leapAllowance(dt: dt, settings) else { return false }
        // The bar the Doppler must clear to say the boat moves away (`NoiseEstimate.movingAway`).
        let trusted = noise.trustedAbove(settings)
        if settings.guardsOff.contains(.jumpsUntrusted), !trusted.isFinite || !noise.speedIndependent(settings) { return false }
        let bar = trusted.isFinite ? max(noise.ownBar(settings), trusted) : noise.ownBar(settings)
        guard noise.radialSpeed <= bar else { return false }
        // Along the line from the anchor to where the boat lay before the leap, not to where the
        // fix leapt: a leap across the line turns that line, and the boat's own swing with it.
        let o = Geodesy.offset(from: anchor, to: from)
        let distance = (o.east * o.east + o.north * o.north).squareRoot()
        guard let radial = radialSpeed(reading, east: o.east, north: o.north, distance: distance) else { return false }
        return radial <= bar
    }

    /// Fixes further apart than this are not compared for a leap: across a dropout the boat
    /// may have moved, and silence tells nothing of how.
    static let leapWithin: Duration = .seconds(3)

    // MARK: - Evidence

    /// Recomputes the verdict, then the alarm, from the evidence at `now`.
    private mutating func reassess(at now: Instant, into out: inout [Action]) {
        let old = verdict
        settleGPSDebt(at: now, judging: old.kind != .cantJudge)
        verdict = judge(at: now)
        if old.kind != verdict.kind { out.append(.verdictChanged(from: old, to: verdict)) }
        if verdict.kind == .checking, old.kind == .holding { out.append(.chirp(.checking)) }
        updateGPSFault(at: now, into: &out)
        updateAlarm(at: now, into: &out)
        endFaultSnooze(at: now, into: &out)
    }

    /// A fault snooze that has run out: the faults it silenced that are still active sound again.
    private mutating func endFaultSnooze(at now: Instant, into out: inout [Action]) {
        guard let until = faultSnoozeUntil, now >= until else { return }
        let wasSounding = faultSounding
        acknowledgedFaults.subtract(faultSnoozed)
        faultSnoozed = []
        faultSnoozeUntil = nil
        if !wasSounding && faultSounding { out.append(.faultSound(on: true)) }
    }

    private mutating func judge(at now: Instant) -> PositionVerdict {
        guard anchor != nil else { return .noAnchor }
        forgetSamples(before: now)
        guard let usable = lastUsable, now - usable.received <= settings.staleAfter else {
            return .cantJudge(cantJudgeReason(at: now))
        }
        // A reading newer than the last usable fix that has no fix, or an accuracy too poor for
        // the alert radius, is Can't judge at once: the box doesn't know where it is now.
        if let rejection = lastRejection, rejection != .implausible { return .cantJudge(rejection) }
        let e = evidence(at: now)
        let h = settings.confirmation.seconds
        if e >= h { return .dragging }
        // More than one fix can carry: checking, filling with its progress.
        if e > settings.mostPerFix { return .checking(progress: min(max(e / h, 0), 1)) }
        // Holding is a verdict too: it needs enough fixes that say the boat is inside.
        return holdingOrNot(evidence: e, fixes: samples.count - samplesHead)
    }

    /// The evidence at `now`: as of the last fix, decayed over the time since then beyond the
    /// second a fix stands for.
    private func evidence(at now: Instant) -> Double {
        guard let at = evidenceAt else { return 0 }
        let missing = (now - at).seconds - 1
        return missing > 0 ? evidence * expCore(-missing / settings.memory.seconds) : evidence
    }

    /// One usable fix at `position`: its distance from `anchor` (returned), its evidence, its
    /// sample, and what it tells about the receiver's wander.
    @discardableResult
    private mutating func addSample(_ reading: GPSReading, at position: Coordinate, from anchor: Coordinate) -> Double {
        let o = Geodesy.offset(from: anchor, to: position)
        let distance = (o.east * o.east + o.north * o.north).squareRoot()
        let radial = radialSpeed(reading, east: o.east, north: o.north, distance: distance)
        let t = reading.received
        let accuracy = reading.accuracy?.value ?? 0
        let weak = reading.mode != .threeD || reading.accuracy == nil
        let weight = weak ? settings.weakWeight : 1
        let gap = evidenceAt.map { max((t - $0).seconds, 0) } ?? 1
        // Only a 3D fix of the receiver's usual accuracy is hastened: a 2D stretch, or a burst
        // of poor readings, wanders more than the receiver's measured wander says, and its
        // speed with it.
        let scale = noise.wanderScale(weak: weak, accuracy: reading.accuracy?.value, settings: settings)
        let moving = noise.followRadialSpeed(radial, gap: gap, distance: distance, at: t, settings: settings)
            && (settings.guardsOff.contains(.dopplerWeakOrBurst) || !weak && !noise.isBurst(reading.accuracy?.value))
        // A weak fix among 3D ones (a 2D stretch) is judged with the weak deadband: its wander is
        // learnt from stretches that come and go. A source that is all weak (RMC only) has its
        // wander measured on its own fixes all along, and keeps the deadband.
        let widened = weak && noise.weakFor < 0.9 * noise.measuredFor && !settings.guardsOff.contains(.weakDeadband)
        var sample = Sample(at: t, distance: distance, accuracy: accuracy, weight: weight, scale: scale, moving: moving, widened: widened)
        sample.slowed = noise.slowing && settings.dopplerSlowingHolds && distance > radius.value
        sample.reach = learnWanderReach(distance: distance, gap: gap, at: t)
        sample.steady = !weak && !noise.isBurst(reading.accuracy?.value) && noise.measuredFor >= settings.swingSpan.seconds
        sample.outing = noise.outingLongest
        sample.away = radial == nil ? 0 : noise.currentRadial
        awayTotal += sample.away * min(gap, 1)
        if trail.last.map({ (t - $0.at).seconds >= Self.trailStep }) ?? true {
            trail.append(TrailPoint(at: t, distance: distance, away: awayTotal))
            if trail.count > Self.trailKept { trail.removeFirst(trail.count - Self.trailKept) }
        }
        sample.beyond = credit(sample, gap: gap) > 0
        if sample.beyond { beyondInWindow += 1 }
        beyondRun = sample.beyond ? beyondRun + 1 : 0
        let gateOpen = evidence <= settings.evidencePerFix || settings.guardsOff.contains(.noiseGate)
        noise.learnStep(east: o.east, north: o.north, at: t, learn: gateOpen, settings: settings)
        if gateOpen {
            noise.learnNoise(distance: distance, gap: gap, at: t, settings: settings)
            noise.learnFix(weak: weak, distance: distance, accuracy: reading.accuracy?.value, gap: gap, settings: settings)
            noise.learnSpeedSource(distance: distance, east: o.east, north: o.north, radial: radial, at: t, settings: settings)
        }
        noise.lastRadial = radial.map { _ in RadialFix(at: t, distance: distance) }
        samples.append(sample)
        return distance
    }

    /// Page's cumulative sum on the excess beyond the alert radius in wanders, less the deadband,
    /// clamped each way to what one fix may carry; decayed over any time no fix stood for.
    /// While the reported speed carries the boat away from the anchor, the deadband is
    /// `doppler_deadband` and a fix may carry up to `doppler_fastest`'s share (Docs/verdict.md).
    /// Returns how many wanders beyond the alert radius the fix stands (negative inside).
    @discardableResult
    private mutating func credit(_ s: Sample, gap: Double) -> Double {
        if gap > 1 { evidence *= expCore(-(gap - 1) / settings.memory.seconds) }
        // On position alone a fix beyond the radius has a wander of at least the receiver's
        // quick excursions' reach over `wanderTail`: a receiver whose rare excursions stand far
        // beyond its RMS wander (heavy tails) is judged by them. The Doppler, once trusted above
        // the speed's own reach, is evidence those excursions never give; and a fix inside takes
        // evidence away in the plain wander, as without the reach.
        let plain = noise.sigma(settings) * s.scale
        let persistent = persists(s, gap: gap)
        let sigma = s.moving || persistent || s.distance <= radius.value ? plain : max(plain, s.reach / settings.wanderTail)
        let deadband = s.moving ? min(settings.dopplerDeadband, settings.deadband)
            : persistent ? min(settings.persistDeadband, settings.deadband)
            : s.widened ? max(settings.weakDeadband, settings.deadband) : settings.deadband
        let beyond = (s.distance - settings.accuracyWeight * s.accuracy - radius.value) / sigma
        // A run that has persisted is the evidence: a fix that keeps it beyond the radius counts
        // at least `persistLeast` wanders, not only as far as it stands beyond (a slow drag lies
        // just beyond for minutes, and a wander's worth takes as long again as the run).
        let z = persistent && beyond > 0 && stillRising(s) ? max(beyond - deadband, settings.persistLeast) : beyond - deadband
        let cap = s.moving ? settings.mostPerFix : settings.evidencePerFix
        // After a jump the fixes beyond the radius show where the receiver leapt to, not where
        // the boat went: they count once they persist, or with the Doppler, not on position alone.
        if s.distance <= radius.value { afterJump = false }
        // Nor, on position alone, a fix of fixes that turned back: a receiver's excursion comes
        // back, a drag goes on.
        let alone = !s.moving && !persistent
        var held = alone && (afterJump || z > 0 && turnedBack(s)) ? min(z, 0) : z
        if s.slowed { held = max(held, 0) }
        evidence = max(0, evidence + s.weight * min(max(held, -settings.evidencePerFix), cap) * min(gap, 1))
        evidenceAt = s.at
        return beyond
    }

    /// The fixes turned back: this one stands more than `turnBack` times the receiver's measured
    /// step below the farthest of the last `turnSpan` (the samples still in the window). Not
    /// before the step has been measured for `swingSpan`: until then every fix counts.
    private func turnedBack(_ s: Sample) -> Bool {
        guard !settings.guardsOff.contains(.positionTurning), noise.stepFor >= settings.swingSpan.seconds else { return false }
        let back = settings.turnBack * noise.stepSquare.squareRoot()
        var peak = s.distance
        var i = samples.count
        while i > samplesHead {
            i -= 1
            if s.at - samples[i].at > settings.turnSpan { break }
            peak = max(peak, samples[i].distance)
        }
        return peak - s.distance > back
    }

    /// Persistence: a drag stands beyond the radius and stays; the receiver's quick outings come
    /// back. The run counts the seconds its steady fixes stand beyond the alert radius, and a
    /// fix inside takes `persistGive` times its seconds back (an up/down count: a drag's first
    /// minutes dip inside on the noise); a gap up to `persistBridge` keeps the run but adds one
    /// second at most (silence is not evidence); a weak or burst fix, or a longer gap, ends it.
    /// Once the run stands at `persistFloor` and at `persistMargin` times the longest quick
    /// outing the receiver has shown (the outing learnt before this fix), or at the floor alone
    /// where the receiver's own speed saw the run as the boat moving away (`speedSawRun`), the
    /// fix counts from the radius itself.
    private mutating func persists(_ s: Sample, gap: Double) -> Bool {
        guard s.steady, gap <= max(1.5, settings.persistBridge.seconds) else {
            endRun()
            return false
        }
        let step = gap <= 1.5 ? gap : 1
        if persistRunning {
            runClock += step
            runAway += s.away * step
        }
        runDistance += s.distance * step
        runSeconds += step
        guard s.distance - settings.accuracyWeight * s.accuracy > radius.value else {
            let taken = settings.persistGive * gap
            if taken.isNaN || persistRun <= taken {
                endRun()
            } else {
                persistRun -= taken
            }
            return false
        }
        if persistRunning { persistRun += step }
        persistRunning = true
        let floor = settings.persistFloor.seconds
        let need = speedSawRun(s, floor: floor) ? floor : max(floor, settings.persistMargin * s.outing)
        return persistRun >= need
    }

    /// A held run counts in full only while its fix stands at least as far out as the run's mean:
    /// a drag goes on, and a receiver's excursion that held beyond the radius comes back
    /// (poor tuning nights 31, 354 and 785 stepped 8 to 15 m out in 10 s and fell back over the
    /// minute after; counted in full they rang). Asked only of a held run, whose seconds are at
    /// least `persistFloor` (a run of no seconds gives NaN here: counted by how far, the safe way).
    private func stillRising(_ s: Sample) -> Bool {
        settings.guardsOff.contains(.persistRising) || s.distance >= runDistance / runSeconds
    }

    /// The run was the boat moving away: for at least `floor` seconds the receiver's own speed
    /// (independent of its positions) carried it away from the anchor on average faster than
    /// `persistSpeed` times that speed's spread at anchor, still does (smoothed, `persistSpeedNow`
    /// times it), and over the last twice `floor` it carried the boat at least
    /// `persistSpeedShare` of the way the fixes rose. A quick outing or a step of the position is
    /// the receiver's, and a speed that is its own shows none of it.
    private func speedSawRun(_ s: Sample, floor: Double) -> Bool {
        guard settings.persistSpeed > 0, runClock >= floor,
              settings.guardsOff.contains(.persistSpeedIndependent) || noise.speedIndependent(settings)
        else { return false }
        let spread = noise.radialSigma(settings)
        guard settings.guardsOff.contains(.persistSpeedAway) || runAway >= settings.persistSpeed * spread * runClock,
              settings.guardsOff.contains(.persistSpeedNow) || noise.radialSpeed >= settings.persistSpeedNow * spread
        else { return false }
        if settings.guardsOff.contains(.persistSpeedTrail) { return true }
        // The newest trail point at least twice the floor old: the fixes' rise since, and the
        // speed's. A trail that does not reach that far back (a gap, a new mark) says nothing.
        guard let then = trail.last(where: { (s.at - $0.at).seconds >= 2 * floor }) else { return false }
        return awayTotal - then.away >= settings.persistSpeedShare * (s.distance - then.distance)
    }

    private mutating func endRun() {
        persistRunning = false
        persistRun = 0
        runClock = 0
        runAway = 0
        runDistance = 0
        runSeconds = 0
    }

    /// The excursion reach (`NoiseEstimate.wanderReach`) from a fix at `distance`, `gap` seconds
    /// after the last; returns the reach as it stood before this fix, 0 before the level is
    /// known or with the guard off.
    private mutating func learnWanderReach(distance: Double, gap: Double, at t: Instant) -> Double {
        guard let level = noise.level else { return 0 }
        let fade = expCore(-min(gap, 10) / settings.wanderReachSpan.seconds)
        noise.wanderReach *= fade
        noise.outingLongest *= fade
        let reach = noise.wanderReach
        // Until the level has been measured for a swing span it is still finding where the boat
        // lies (the boat falling back on its rode from where it was marked): no outing yet.
        guard noise.measuredFor >= settings.swingSpan.seconds else {
            noise.levelOuting.start = nil
            noise.quickOuting.start = nil
            return settings.guardsOff.contains(.wanderReach) ? 0 : reach
        }
        // An outing that crossed back over its level within the span was the receiver's: the
        // reach from those about the quick level (`WatchGuard.wanderQuickLevel` off: the slow),
        // the longest from those about the slow level.
        let slowReach = settings.guardsOff.contains(.wanderQuickLevel)
        if let o = noise.levelOuting.follow(distance - level, at: t, span: settings.wanderOutingSpan) {
            if slowReach { noise.wanderReach = max(noise.wanderReach, o.peak) }
            if o.out { noise.outingLongest = max(noise.outingLongest, o.seconds) }
        }
        let quick = noise.quickLevel ?? level
        noise.quickLevel = quick + min(min(gap, 10) / settings.wanderQuickSpan.seconds, 1) * (distance - quick)
        if let o = noise.quickOuting.follow(distance - quick, at: t, span: settings.wanderOutingSpan), !slowReach {
            noise.wanderReach = max(noise.wanderReach, o.peak)
        }
        return settings.guardsOff.contains(.wanderReach) ? 0 : reach
    }

    /// Drops samples that left the window.
    private mutating func forgetSamples(before now: Instant) {
        while samplesHead < samples.count, now - samples[samplesHead].at > settings.window {
            if samples[samplesHead].beyond { beyondInWindow -= 1 }
            samplesHead += 1
        }
        beyondRun = min(beyondRun, samples.count - samplesHead)
        if samplesHead >= 64, samplesHead * 2 >= samples.count {
            samples.removeFirst(samplesHead)
            samplesHead = 0
        }
    }

    /// The alert radius changed: the evidence is judged again from the window's fixes.
    private mutating func rejudgeWindow() {
        evidence = 0
        evidenceAt = nil
        endRun()
        beyondInWindow = 0
        beyondRun = 0
        for i in samplesHead..<samples.count {
            let s = samples[i]
            let gap = evidenceAt.map { max((s.at - $0).seconds, 0) } ?? 1
            samples[i].beyond = credit(s, gap: gap) > 0
            if samples[i].beyond { beyondInWindow += 1 }
            beyondRun = samples[i].beyond ? beyondRun + 1 : 0
        }
    }

    /// Why the last reading gives no usable position now, with or without an anchor: the
    /// verdict's reason where there is an anchor to judge.
    func gpsUnusable(at now: Instant) -> CantJudgeReason? {
        if let usable = lastUsable, now - usable.received <= settings.staleAfter,
            lastRejection == nil || lastRejection == .implausible { return nil }
        return cantJudgeReason(at: now)
    }

    private func cantJudgeReason(at now: Instant) -> CantJudgeReason {
        guard let last = lastReading else { return .noReading }
        if let rejection = lastRejection, now - last.received <= settings.staleAfter { return rejection }
        return .stale
    }

    /// The GPS-lost fault as of `now`, while the fault the watch raised is up: its words are its
    /// message's, with the time since the last usable reading in place of the grace that raised
    /// it (with none since the watch started, the grace and the time since).
    func gpsLost(at now: Instant) -> GPSLost? {
        guard let raised = gpsLostRaised, faults[.gpsLost] == raised.fault else { return nil }
        let lost = lastUsable.map { now - $0.received } ?? settings.gpsGrace + (now - raised.at)
        return GPSLost(reason: raised.reason, lost: lost, judgeable: raised.judgeable)
    }

    /// Judged this long without a break clears the GPS fault.
    static let gpsClearAfter: Duration = .seconds(10)

    /// Brings the GPS debt up to `now`: the time since it was last settled counts against it
    /// while the watch could not judge, for it while it could.
    private mutating func settleGPSDebt(at now: Instant, judging: Bool) {
        defer { gpsDebtAt = now }
        guard alarm.isArmed, anchor != nil, let at = gpsDebtAt else { return }
        let elapsed = now - at
        gpsDebt = judging ? max(.zero, gpsDebt - elapsed) : gpsDebt + elapsed
    }

    private mutating func updateGPSFault(at now: Instant, into out: inout [Action]) {
        guard alarm.isArmed else {
            gpsDebt = .zero
            judgedSince = nil
            if faults[.gpsLost] != nil { clear(.gpsLost, into: &out) }
            return
        }
        if verdict.kind == .cantJudge {
            judgedSince = nil
            if gpsDebt >= settings.gpsGrace, faults[.gpsLost] == nil {
                var reason = CantJudgeReason.noReading
                if case .cantJudge(let why) = verdict { reason = why }
                let judgeable = reason == .poorAccuracy ? lastReading?.accuracy.flatMap(smallestJudgeableRadius) : nil
                let fault = Fault(.gpsLost, Words.gpsFault(reason, for: settings.gpsGrace, radius: radius, judgeable: judgeable))
                gpsLostRaised = (fault, now, reason, judgeable)
                raise(fault, into: &out)
            }
        } else {
            let since = judgedSince ?? now
            judgedSince = since
            if faults[.gpsLost] != nil, now - since >= Self.gpsClearAfter {
                gpsDebt = .zero
                clear(.gpsLost, into: &out)
            }
        }
    }

    // MARK: - Alarm

    private mutating func updateAlarm(at now: Instant, into out: inout [Action]) {
        switch alarm {
        case .armed where verdict == .dragging:
            ring(at: now, into: &out)
        case .snoozed(let until, _) where now >= until:
            if verdict == .holding {
                setAlarm(.armed, into: &out)
            } else {
                ring(at: now, into: &out)
            }
        default:
            break
        }
    }

    private mutating func ring(at now: Instant, into out: inout [Action]) {
        lastEpisode += 1
        setAlarm(.ringing(episode: lastEpisode), into: &out)
        out.append(.alarmSound(on: true))
    }

    private mutating func setAlarm(_ new: AlarmState, into out: inout [Action]) {
        let old = alarm
        guard old != new else { return }
        alarm = new
        out.append(.alarmChanged(from: old, to: new))
    }

    // MARK: - Faults

    /// True while a fault that pushes is active and not yet silenced by the skipper.
    public var faultSounding: Bool {
        faults.values.contains { $0.pushes && !acknowledgedFaults.contains($0.kind) }
    }

    private mutating func raise(_ fault: Fault, into out: inout [Action]) {
        let wasSounding = faultSounding
        let isNew = faults[fault.kind] != fault
        faults[fault.kind] = fault
        if isNew {
            acknowledgedFaults.remove(fault.kind)
            out.append(.faultRaised(fault))
        }
        if !wasSounding && faultSounding { out.append(.faultSound(on: true)) }
    }

    private mutating func clear(_ kind: FaultKind, into out: inout [Action]) {
        guard faults[kind] != nil else { return }
        let wasSounding = faultSounding
        faults[kind] = nil
        acknowledgedFaults.remove(kind)
        faultSnoozed.remove(kind)
        if faultSnoozed.isEmpty { faultSnoozeUntil = nil }
        out.append(.faultCleared(kind))
        if wasSounding && !faultSounding { out.append(.faultSound(on: false)) }
    }

    // MARK: - Button

    private mutating func pressed(_ press: Press, at now: Instant, into out: inout [Action]) {
        // While ringing any press snoozes: a woken skipper holds the button as long as they like.
        if case .ringing(let episode) = alarm {
            apply(.snooze(episode: episode), at: now, into: &out)
            return
        }
        // A fault sounding: snoozed for a while with a receipt, as `anchor-alert snooze` does.
        if faultSounding {
            snoozeFaultSound(.snooze(episode: alarm.episode ?? 0), at: now, into: &out)
            return
        }
        switch press {
        case .short: out.append(.chirp(.acknowledge))
        case .long: apply(.mark(buttonMark(at: now)), at: now, into: &out)
        case .veryLong: apply(.release, at: now, into: &out)
        }
    }

    // MARK: - Decisions

    private mutating func apply(_ decision: Decision, at now: Instant, into out: inout [Action]) {
        switch decision {
        case .arm:
            guard anchor != nil else { return refuse(decision, .noAnchor, into: &out) }
            guard !alarm.isArmed else { return }
            setAlarm(.armed, into: &out)
            accept(decision, chirp: .arm, into: &out)
            // A boat already dragging when armed rings at once.
            reassess(at: now, into: &out)

        case .disarm:
            guard alarm.isArmed else { return }
            let wasRinging = alarm.kind == .ringing
            setAlarm(.off, into: &out)
            if wasRinging { out.append(.alarmSound(on: false)) }
            accept(decision, chirp: .disarm, into: &out)

        case .mark(let request):
            guard !alarm.isArmed else { return refuse(decision, .armedMark, into: &out) }
            if request == .fromSwing, let why = swingRefusal() { return refuse(decision, why, into: &out) }
            guard let position = markPosition(request, at: now) else {
                if case .offset = request, hereFix(at: now) != nil {
                    return refuse(decision, .markTooFar, into: &out)
                }
                return refuse(decision, .noGoodFix, into: &out)
            }
            swingMarked(request, old: anchor, new: position)
            anchor = position
            let keptSwing = swing.memory(at: now)
            resetEvidence()
            // The fixes of the last window are judged against the new anchor at once, so a mark
            // far from the boat is Checking, never Holding.
            for fix in recentFixes where now - fix.received <= settings.window {
                if let p = fix.position { addSample(fix, at: p, from: position) }
            }
            accept(decision, chirp: .mark, into: &out)
            // The swing kept through the mark (the same anchor) is kept after it, in the journal too.
            if let keptSwing {
                out.append(.swingLearnt(keptSwing))
                swing.saved(at: now)
            }
            // The switch already on ARM (a slide refused for no anchor): arm now, as the
            // switch says (Docs/controls.md, "A mark with the switch on ARM"). The mark's
            // receipt, the one answer its sender reads, says the alarm it left.
            if switchOn == true {
                let markAt = out.count - 1
                apply(.arm, at: now, into: &out)
                if case .accepted(var receipt, let chirp) = out[markAt] {
                    receipt.alarm = alarm
                    out[markAt] = .accepted(receipt, chirp: chirp)
                }
            }

        case .release:
            guard !alarm.isArmed else { return refuse(decision, .armedRelease, into: &out) }
            anchor = nil
            resetEvidence()
            swing.reset()
            farthest = nil
            offSwingAt = nil
            accept(decision, chirp: .release, into: &out)

        case .snooze(let episode):
            switch alarm {
            case .ringing(let current) where current == episode:
                setAlarm(.snoozed(until: now + settings.snooze, episode: episode), into: &out)
                out.append(.alarmSound(on: false))
                accept(decision, chirp: .snooze, until: now + settings.snooze, into: &out)
            case .ringing, .snoozed:
                // An alarm already answered is refused by name, fault or none (the button
                // snoozes a fault sounding then, `pressed`).
                refuse(decision, .wrongEpisode, into: &out)
            case _ where faultSounding:
                // No alarm rings, but a fault sounds: the snooze silences it for a snooze's
                // length, with a receipt; the fault stays shown and sounds again if it stays.
                snoozeFaultSound(decision, at: now, into: &out)
            case .off, .armed:
                refuse(decision, .notRinging, into: &out)
            }

        case .setRadius(let r):
            guard r.value.isFinite, settings.radiusRange.contains(r.value) else {
                return refuse(decision, .radiusOutOfRange, into: &out)
            }
            radius = r
            rejudgeWindow()
            let judgeable = accuracyTooPoor(for: r, at: now).flatMap(smallestJudgeableRadius)
            out.append(.accepted(Receipt(decision: decision, anchor: anchor, radius: radius, alarm: alarm, until: nil,
                                         judgeable: judgeable), chirp: .radiusStep))
        }
    }

    private mutating func resetEvidence() {
        samples.removeAll()
        samplesHead = 0
        beyondInWindow = 0
        beyondRun = 0
        evidence = 0
        evidenceAt = nil
        endRun()
        afterJump = false
        awayTotal = 0
        trail.removeAll()
        noise = NoiseEstimate()
        wanderSaved = nil
        excursionsSaved = (0, 0)
        gpsDebt = .zero
        judgedSince = nil
    }

    /// The fault sound silenced for `settings.snooze`: the faults sounding now stay shown and
    /// sound again when it ends if they are still there (`endFaultSnooze`).
    private mutating func snoozeFaultSound(_ decision: Decision, at now: Instant, into out: inout [Action]) {
        let quiet = Set(faults.values.filter { $0.pushes && !acknowledgedFaults.contains($0.kind) }.map(\.kind))
        faultSnoozed.formUnion(quiet)
        acknowledgedFaults.formUnion(quiet)
        faultSnoozeUntil = now + settings.snooze
        out.append(.faultSound(on: false))
        var receipt = Receipt(decision: decision, anchor: anchor, radius: radius, alarm: alarm, until: now + settings.snooze)
        receipt.silencesFault = true
        out.append(.accepted(receipt, chirp: .snooze))
    }

    private func accept(_ decision: Decision, chirp: Chirp, until: Instant? = nil, into out: inout [Action]) {
        out.append(.accepted(Receipt(decision: decision, anchor: anchor, radius: radius, alarm: alarm, until: until),
                             chirp: chirp))
    }

    private func refuse(_ decision: Decision, _ why: Refusal, into out: inout [Action]) {
        out.append(.refused(decision, why))
    }

    /// The mean of the last few good fixes, if there are enough recent ones.
    public func hereFix(at now: Instant) -> Coordinate? {
        let fresh = recentFixes.filter { now - $0.received <= settings.markSpan }
        guard fresh.count >= settings.markMinFixes else { return nil }
        return Geodesy.mean(fresh.suffix(settings.markFixes).compactMap(\.position))
    }

    private func markPosition(_ request: MarkRequest, at now: Instant) -> Coordinate? {
        switch request {
        case .here:
            return hereFix(at: now)
        case .offset(let bearing, let distance):
            guard bearing.isFinite, distance.value.isFinite, distance.value >= 0,
                distance <= settings.markMaxOffset, let here = hereFix(at: now)
            else { return nil }
            return Geodesy.destination(from: here, bearing: bearing, distance: distance)
        case .at(let c):
            return Coordinate.validated(latitude: c.latitude, longitude: c.longitude)
        case .fromSwing:
            return swing.estimate?.centre
        }
    }
}
