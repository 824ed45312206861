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
    /// Where the physical switch is, once known.
    public private(set) var switchOn: Bool?

    public private(set) var lastReading: GPSReading?
    /// The anchor learnt from the swing, and the farthest the boat was from the mark since it
    /// was set (Watch+Swing.swift).
    public internal(set) var swing = SwingEstimator()
    public internal(set) var farthest: Meters?
    public private(set) var lastUsable: GPSReading?
    /// Why the most recent reading was not usable; nil when it was.
    private var lastRejection: CantJudgeReason?
    /// Usable fixes of the last `markSpan`, newest last: what a mark averages.
    private var recentFixes: [GPSReading] = []
    /// The evidence: usable fixes of the last `window` (and of `driftSpan`, if longer) with
    /// their distance to the anchor, oldest first from `samplesHead`. Kept as a queue so a fix
    /// costs the same however many the window holds.
    private var samples: [Sample] = []
    private var samplesHead = 0
    /// The first sample inside `window`; older ones only feed the drift.
    private var windowHead = 0
    /// How many samples from `windowHead` on count as outside, kept as fixes come and go.
    private var outsideInWindow = 0
    /// Checking's progress toward dragging (0 to 1), when it was last brought up to date, and
    /// the confirmation time it fills over from then on (shorter while the boat drifts away).
    private var progress: Double?
    private var progressAt: Instant = .zero
    private var fillingOver: Duration = .zero
    private var cantJudgeSince: Instant?

    struct Sample: Hashable, Sendable {
        var at: Instant
        var distance: Double
        var accuracy: Double
        /// Outside the alert radius by more than `accuracyWeight` of its reported accuracy.
        var outside: Bool
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
        if windowHead < samples.count { consider(samples[windowHead].at + settings.window + .milliseconds(1)) }
        if let progress, verdict.kind == .checking {
            // Progress is drawn on the ring: wake once a second while checking, and at the end.
            let end = progressAt + .seconds(max(0, 1 - progress) * fillingOver.seconds)
            consider(min(end, now + .seconds(1)))
        }
        if case .snoozed(let until, _) = alarm { consider(until) }
        if alarm.isArmed, let since = cantJudgeSince, faults[.gpsLost] == nil {
            consider(since + settings.gpsGrace)
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
        if let previous = lastUsable, let from = previous.position, !plausible(from, previous, to: position, reading) {
            lastRejection = .implausible
            return
        }
        lastRejection = nil
        lastUsable = reading
        recentFixes.append(reading)
        recentFixes.removeAll { reading.received - $0.received > settings.markSpan }
        if recentFixes.count > 64 { recentFixes.removeFirst(recentFixes.count - 64) }

        var distance: Meters?
        if let anchor {
            let d = Geodesy.distance(anchor, position)
            distance = d
            addSample(at: reading.received, distance: d.value, accuracy: reading.accuracy?.value ?? 0)
            learnSwing(position, distance: d, at: reading.received)
        }
        out.append(.track(reading, distance: distance))
    }

    /// The accuracy worse than which a fix is no evidence at the current alert radius.
    public var accuracyLimit: Meters { radius * settings.accuracyLimitFraction }

    private func plausible(_ from: Coordinate, _ previous: GPSReading, to: Coordinate, _ reading: GPSReading) -> Bool {
        let dt = max((reading.received - previous.received).seconds, 0)
        let slack: Double = 3 * ((previous.accuracy?.value ?? 10) + (reading.accuracy?.value ?? 10)) + 25
        return Geodesy.distance(from, to).value <= settings.maxPlausibleSpeed * dt + slack
    }

    // MARK: - Evidence

    /// Recomputes the verdict, then the alarm, from the evidence at `now`.
    private mutating func reassess(at now: Instant, into out: inout [Action]) {
        let old = verdict
        verdict = judge(at: now)
        if old.kind != verdict.kind { out.append(.verdictChanged(from: old, to: verdict)) }
        if verdict.kind == .checking, old.kind == .holding { out.append(.chirp(.checking)) }
        updateGPSFault(at: now, into: &out)
        updateAlarm(at: now, into: &out)
    }

    private mutating func judge(at now: Instant) -> PositionVerdict {
        guard anchor != nil else {
            progress = nil
            return .noAnchor
        }
        forgetSamples(before: now)
        guard let usable = lastUsable, now - usable.received <= settings.staleAfter else {
            progress = nil
            return .cantJudge(cantJudgeReason(at: now))
        }
        let count = samples.count - windowHead
        // Too few fixes left in the window to count a majority (fixes stopped, and the window
        // empties before the last one goes stale): that is no evidence the boat came back, so
        // checking or dragging stays as it was, its progress frozen, until staleness decides.
        if count < settings.minFixes, verdict.kind == .checking || verdict.kind == .dragging, progress != nil {
            progressAt = now
            return verdict
        }
        let majority = count >= settings.minFixes
            && Double(outsideInWindow) >= settings.majority * Double(count)
        guard majority else {
            progress = nil
            return .holding
        }
        // Progress fills over the confirmation time, or the shorter drift confirmation while
        // the boat moves steadily away: a drag keeps going, noise wanders back.
        var p = 0.0
        if let old = progress {
            p = fillingOver > .zero ? old + (now - progressAt).seconds / fillingOver.seconds : 1
        }
        // Drift only ever shortens the verdict, whatever the configuration says.
        fillingOver = driftingAway(at: now) ? min(settings.driftConfirmation, settings.confirmation) : settings.confirmation
        if fillingOver <= .zero { p = 1 }
        progress = p
        progressAt = now
        return p >= 1 ? .dragging : .checking(progress: max(0, p))
    }

    /// Whether the distance to the anchor over the last `driftSpan` rises at `driftSpeed` or
    /// faster (least squares over every usable fix in the span, at least `minFixes` of them).
    private func driftingAway(at now: Instant) -> Bool {
        guard settings.driftSpan > .zero else { return false }
        var n = 0.0, st = 0.0, sd = 0.0, stt = 0.0, std = 0.0
        for s in samples[samplesHead...] where now - s.at <= settings.driftSpan {
            let t = (s.at - now).seconds
            n += 1
            st += t
            sd += s.distance
            stt += t * t
            std += t * s.distance
        }
        guard n >= Double(max(settings.minFixes, 2)) else { return false }
        let variance = stt - st * st / n
        guard variance > 1e-9 else { return false }
        return (std - st * sd / n) / variance >= settings.driftSpeed
    }

    private mutating func addSample(at: Instant, distance: Double, accuracy: Double) {
        let outside = distance - settings.accuracyWeight * accuracy > radius.value
        samples.append(Sample(at: at, distance: distance, accuracy: accuracy, outside: outside))
        if outside { outsideInWindow += 1 }
    }

    /// Drops samples that left the window (and the drift span), keeping the outside count.
    private mutating func forgetSamples(before now: Instant) {
        while windowHead < samples.count, now - samples[windowHead].at > settings.window {
            if samples[windowHead].outside { outsideInWindow -= 1 }
            windowHead += 1
        }
        let keep = max(settings.window, settings.driftSpan)
        while samplesHead < windowHead, now - samples[samplesHead].at > keep { samplesHead += 1 }
        if samplesHead >= 64, samplesHead * 2 >= samples.count {
            samples.removeFirst(samplesHead)
            windowHead -= samplesHead
            samplesHead = 0
        }
    }

    /// The alert radius changed: every sample is judged again against the new one.
    private mutating func recountOutside() {
        outsideInWindow = 0
        for i in samples.indices {
            samples[i].outside = samples[i].distance - settings.accuracyWeight * samples[i].accuracy > radius.value
            if i >= windowHead, samples[i].outside { outsideInWindow += 1 }
        }
    }

    private func cantJudgeReason(at now: Instant) -> CantJudgeReason {
        guard let last = lastReading else { return .noReading }
        if let rejection = lastRejection, now - last.received <= settings.staleAfter { return rejection }
        return .stale
    }

    private mutating func updateGPSFault(at now: Instant, into out: inout [Action]) {
        if alarm.isArmed, verdict.kind == .cantJudge {
            let since = cantJudgeSince ?? now
            cantJudgeSince = since
            if now - since >= settings.gpsGrace, faults[.gpsLost] == nil {
                raise(Fault(.gpsLost, Copy.gpsLostFault(for: settings.gpsGrace)), into: &out)
            }
        } else {
            cantJudgeSince = nil
            if faults[.gpsLost] != nil { clear(.gpsLost, into: &out) }
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
        if faultSounding {
            acknowledgedFaults.formUnion(faults.keys)
            out.append(.faultSound(on: false))
            out.append(.chirp(.acknowledge))
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
            resetEvidence()
            if let usable = lastUsable, let p = usable.position, now - usable.received <= settings.window {
                addSample(at: usable.received, distance: Geodesy.distance(position, p).value,
                          accuracy: usable.accuracy?.value ?? 0)
            }
            accept(decision, chirp: .mark, into: &out)
            // The switch already on ARM (a slide refused for no anchor): arm now, as the
            // switch says (Docs/controls.md, "A mark with the switch on ARM").
            if switchOn == true { apply(.arm, at: now, into: &out) }

        case .release:
            guard !alarm.isArmed else { return refuse(decision, .armedRelease, into: &out) }
            anchor = nil
            resetEvidence()
            swing.reset()
            farthest = nil
            accept(decision, chirp: .release, into: &out)

        case .snooze(let episode):
            switch alarm {
            case .ringing(let current) where current == episode:
                setAlarm(.snoozed(until: now + settings.snooze, episode: episode), into: &out)
                out.append(.alarmSound(on: false))
                accept(decision, chirp: .snooze, until: now + settings.snooze, into: &out)
            case .ringing, .snoozed:
                refuse(decision, .wrongEpisode, into: &out)
            case .off, .armed:
                refuse(decision, .notRinging, into: &out)
            }

        case .setRadius(let r):
            guard r.value.isFinite, settings.radiusRange.contains(r.value) else {
                return refuse(decision, .radiusOutOfRange, into: &out)
            }
            radius = r
            recountOutside()
            progress = nil
            accept(decision, chirp: .radiusStep, into: &out)
        }
    }

    private mutating func resetEvidence() {
        samples.removeAll()
        samplesHead = 0
        windowHead = 0
        outsideInWindow = 0
        progress = nil
        cantJudgeSince = nil
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
