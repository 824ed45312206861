/// The watch's tunables. Defaults for the evidence rule come from the detection benchmark
/// (Docs/benchmarks.md, Docs/verdict.md), not from taste; the configuration file may override each.
public struct WatchSettings: Hashable, Sendable {
    /// Alert radius until the skipper sets one.
    public var radius: Meters = 30
    public var radiusRange: ClosedRange<Double> = 5...500

    /// Holding needs at least `minFixes` usable fixes in the last `window`: fewer is Can't judge
    /// (or the verdict it had, while the evidence still says Checking or Dragging).
    public var window: Duration = .seconds(20)
    public var minFixes: Int = 3

    /// The evidence (Docs/verdict.md). Each usable fix adds, for the time it stands for (at most
    /// a second), how far it lies beyond the alert radius in units of the receiver's measured
    /// wander, less `deadband` of them: a boat standing one wander beyond that line rings after
    /// `confirmation`, further out faster, never faster than `fastest`. Fixes inside take it away.
    /// Defaults from the benchmark, tuned on half the captures and measured on the other half
    /// (Docs/benchmarks.md, Docs/verdict.md): the quickest with no false alarm in 200 nights per
    /// receiver class on either half (a deadband of 1 false-alarmed on 6 of 600 tuning nights;
    /// 1.25, clean on the 1,000-night classes, rang under 2D stretches and accuracy bursts).
    public var confirmation: Duration = .seconds(5)
    public var fastest: Duration = .seconds(3)
    /// Wanders beyond the alert radius that count as nothing.
    public var deadband: Double = 1.5
    /// While readings are missing or can't judge, the evidence decays with this time constant
    /// rather than resetting (a drag through dropouts still adds up).
    public var memory: Duration = .seconds(300)
    /// A 2D fix, or one without a reported accuracy (a source that sends only RMC), counts this
    /// much of a 3D fix with an accuracy: weaker evidence, never none.
    public var weakWeight: Double = 0.5
    /// A weak fix among 3D ones (weak fixes under 90% of the measured time) counts only beyond
    /// this many wanders (at least `deadband`): a 2D stretch wanders further and longer than the
    /// wander learnt from stretches that come and go says. An all-weak source (RMC only) keeps
    /// `deadband`.
    public var weakDeadband: Double = 2
    /// The reported speed over ground (the receiver's Doppler, independent of its position's
    /// slow wander): while its component away from the anchor, smoothed over `dopplerSpan`,
    /// exceeds `dopplerThreshold` times its own spread measured while holding (and at least
    /// `dopplerMinimum` m/s), the deadband is `dopplerDeadband` and a drag may ring as soon as
    /// `dopplerFastest`. It only ever hastens: a receiver without speed, or one that holds it at
    /// zero, rings on position alone. Defaults from the benchmark (Docs/verdict.md).
    public var dopplerDeadband: Double = 0
    public var dopplerFastest: Duration = .seconds(2)
    public var dopplerSpan: Duration = .seconds(20)
    public var dopplerThreshold: Double = 3
    public var dopplerMinimum: Double = 0.15
    /// The radial speed's spread starts at `dopplerPrior` m/s (counted as `noisePriorSpan` of
    /// measurement) and never goes below `dopplerFloor`.
    public var dopplerPrior: Double = 0.15
    public var dopplerFloor: Double = 0.03
    /// The radial speed's spread is also measured over this recent span, and the larger of the
    /// two counts: a receiver whose speed starts to wander more is trusted less at once, not
    /// after half an hour (0: the long span alone).
    public var dopplerRecentSpan: Duration = .seconds(300)
    /// The reported speed counts only once its difference from the positions' own change is at
    /// least this share of that change (a speed worked out from positions differs by nothing).
    public var dopplerIndependence: Double = 0.1
    /// A reported speed whose component along the line from the anchor is faster than this
    /// (m/s, about 6 kn, either way) is no boat on a rode: that reading has no speed. Across the
    /// line a boat sailing on its anchor may be faster (the benchmark's boats reach 6 m/s).
    public var dopplerPlausible: Double = 3
    /// The speed counts only while the track agrees: the distance, its change smoothed over
    /// `dopplerSpan` like the speed, grows at least this share of the smoothed radial speed.
    public var dopplerAgreement: Double = 0.25
    /// The speed is trusted only as far as the receiver has earned at anchor: the Doppler counts
    /// once `dopplerTrustSpan` of fixes about the mark has measured it, and only for a smoothed radial
    /// speed above `dopplerTrustMargin` times its reach, the fastest it moved away while the
    /// track agreed and the boat then gave back (a receiver whose speed moves with its position
    /// shows its excursions there). The reach fades over `dopplerReachSpan`; nil, the default,
    /// keeps it while the anchor is down: how a receiver couples its speed to its position is the
    /// receiver's, not the sky's, and its excursions come in any direction, so hours can pass
    /// before the next one runs along the line again (a reach faded over 6 h rang a filter-speed
    /// receiver 6.7 h into its night: Docs/benchmarks.md). The margin is 2.3, not 2: the reach
    /// is the fastest excursion seen so far, and the next can go further (held-out filter speed
    /// 3518 and lagged speed 3822 rang at 2, their excursions' smoothed speed at 2.24 and 2.0
    /// times the reach). Its price: the good receiver's 4 kn probe drag 38, whose speed crossed
    /// twice its reach as 3518's did, by a hair, rings 2 s later (Docs/benchmarks.md, "The
    /// Doppler's margin: 2.3 times the reach").
    public var dopplerTrustSpan: Duration = .seconds(600)
    public var dopplerTrustMargin: Double = 2.3
    public var dopplerReachSpan: Duration? = nil
    /// The Doppler hastens only while the readings hold their speed: this second's mean of the
    /// median of the last three readings' radial speeds (`NoiseEstimate.currentRadial`) no more
    /// than `dopplerSlowing` m/s, or `dopplerSlowingShare` of the fastest second's if that is
    /// more, below the fastest second's over the last `dopplerSlowingSpan`
    /// (`WatchGuard.dopplerSlowing`). A receiver whose speed moves with its position reports its
    /// excursion's speed falling as the fixes near their turn, where they stand beyond the radius;
    /// the wind that drags a boat holds it at its speed. Without it the filter-speed and
    /// lagged-speed receivers' first large excursions after the speed's trust ring (held-out
    /// 13095, 13805, 15091, 19473), the smoothed speed 2.4 to 4.5 times a reach learnt on smaller
    /// ones; with it they are quiet. Its price: a drag that slows as the swing that carried it
    /// out spends itself, the good receiver's 2 kn probe 6 / 9 / 9 s, without it 5 / 9 / 9
    /// (Docs/benchmarks.md, "A first excursion turns"). The share lets a fast drag's swing rock
    /// its speed: the swing moves the speed by about as much at 4 kn as at 2, and a turning
    /// excursion's speed falls to nothing. From 1.67 m/s it allows more than 0.25: the 4 kn
    /// probe 3 / 6 / 7 s, as without the rule (with the 0.25 alone 4 / 7 / 7); at 0.2 held-out
    /// 13095 rings again.
    public var dopplerSlowing: Double = 0.25
    public var dopplerSlowingShare: Double = 0.15
    public var dopplerSlowingSpan: Duration = .seconds(4)
    /// A second the readings' falling speed holds the Doppler back (every other word of
    /// `NoiseEstimate.movingAway` saying the boat moves away) takes no evidence away from a fix
    /// beyond the alert radius: it adds only what position alone would, and takes nothing. The
    /// rule above asks whether the speed still hastens; a falling speed is not evidence that the
    /// boat came back. Without it a drag whose speed dips for a second as its swing spends itself
    /// lost the evidence it had built (the good receiver's 2 kn probe drag 24 rang at 6 s, 5
    /// without the rule); the excursions the rule quiets stay quiet (Docs/benchmarks.md, "A
    /// falling speed takes nothing back").
    public var dopplerSlowingHolds = true
    /// The position's excursion reach (`Watch.NoiseEstimate.wanderReach`: the farthest a fix
    /// stood from where the boat lay, either way, in an outing that came back within
    /// `wanderOutingSpan`) fades over `wanderReachSpan`. On position alone a fix's wander is at
    /// least that reach over `wanderTail`: a receiver whose rare quick excursions (30 m at a 20 m
    /// margin) stand far beyond its RMS wander is judged by them. 2, not 3: the reach is the
    /// largest of the few outings seen along the line, and the next can go further (on the tuning
    /// nights at a 15 m margin, 3 rang 23 of 800, 2 rang 13, none that 3 did not:
    /// Docs/benchmarks.md, "The excursions' tail: half the reach").
    public var wanderReachSpan: Duration = .seconds(21_600)
    public var wanderOutingSpan: Duration = .seconds(90)
    /// The reach is learnt from outings about the distance's quick level, its mean over
    /// `wanderQuickSpan`, not the slow level the wander is measured about: a receiver's slow
    /// wander holds its fixes on one side of the slow level for minutes, and an excursion riding
    /// on it never crossed back within `wanderOutingSpan`, so it taught nothing (filter speed
    /// tuning night 528 rang on position alone with a reach of 6 m after an inward excursion of
    /// 14 m: Docs/benchmarks.md, "Excursions on a slow wander"). The longest quick outing is
    /// still measured about the slow level.
    public var wanderQuickSpan: Duration = .seconds(60)
    public var wanderTail: Double = 2
    /// On position alone a fix counts only while the fixes have not turned back: it adds no
    /// evidence where it stands more than `turnBack` times the receiver's measured step (the
    /// root mean square of its move from fix to fix at anchor) below the farthest fix of the
    /// last `turnSpan` (`WatchGuard.positionTurning`). A receiver's excursion goes out and comes
    /// back; a drag goes on. Until the step has been measured for `swingSpan` the rule waits.
    public var turnBack: Double = 1
    public var turnSpan: Duration = .seconds(10)
    /// Persistence: once the steady fixes (3D, no burst) have stood beyond the alert radius for
    /// `persistFloor`, and for `persistMargin` times the longest quick outing the receiver has
    /// shown beyond its level (`NoiseEstimate.outingLongest`), each second inside taking
    /// `persistGive` seconds back, a fix counts in the plain wander with `persistDeadband`
    /// (Docs/verdict.md, "Persistence"). 0.75 of the outing, not less: at 0.6 the regression
    /// check's good 6 m night 24 rings (`ANCHOR_BOX_SET=pm=0.6 anchor-bench --check`).
    public var persistFloor: Duration = .seconds(45)
    public var persistMargin: Double = 0.75
    public var persistDeadband: Double = 0
    /// What a steady fix inside the radius takes from the run, in seconds per second of it
    /// (infinity: the run starts again). 2, so a wander that stands out less than two thirds of
    /// the time never builds a run (`EvidenceWeightTests.testWanderingOutAndBackNeverRings`
    /// rings at 1).
    public var persistGive: Double = 2
    /// A gap in the fixes up to this long keeps the run, the fix after it counting one second;
    /// a longer one starts it again.
    public var persistBridge: Duration = .seconds(5)
    /// A persistent fix beyond the alert radius counts at least this many wanders beyond the
    /// deadband, up to the most one fix may carry (0: only as far as it stands), while it stands
    /// at least as far out as the run's mean distance (`WatchGuard.persistRising`: an excursion
    /// falling back counts only by how far it stands). Infinity, so once the run has held,
    /// `fastest` more seconds of it beyond ring: the run is the evidence. A slow drag lies just
    /// beyond the radius for minutes, and counted by how far it stands (a tenth of a wander a
    /// second) it took as long again as the run: the held-out coupled receiver's 0.2 kn drags
    /// 61 / 123 s, against 56 / 120 counted in full (Docs/benchmarks.md, "A held run rings while
    /// it still stands out").
    public var persistLeast: Double = .infinity
    /// A run the receiver's own speed saw as the boat moving away needs only `persistFloor`, not
    /// the outing's share: a speed independent of the positions (`NoiseEstimate.speedIndependent`)
    /// that over the run carried the boat away on average faster than `persistSpeed` times its
    /// spread at anchor, smoothed still does by `persistSpeedNow` times it, and over the last
    /// twice `persistFloor` carried it at least `persistSpeedShare` of the way the fixes rose. A
    /// quick outing or a step is the position's: a speed of its own shows none of it, and a
    /// drag goes on (`persistSpeed` 0: off). Chosen on the probe's good 0.2 kn drags, 48 / 96 /
    /// 101 s where the outing's share took 53 / 102 / 113 (Docs/benchmarks.md, "Slow drags the
    /// speed saw"); the share on the good receiver's quiet night 119 at a 6 m margin, whose fixes
    /// stepped 10 m out while the speed said 0.05 m/s (it rings on the average alone), and the
    /// speed now on its night 210, whose speed moved 0.1 to 0.3 m/s with a step of its fixes and
    /// had fallen back to nothing when it rang.
    public var persistSpeed: Double = 0.5
    public var persistSpeedShare: Double = 0.5
    public var persistSpeedNow: Double = 0.7
    /// A fix counts as outside only by what lies beyond this many of its own reported accuracies
    /// (0 ignores accuracy: a poor receiver that under-reports its error can't defeat the rule).
    public var accuracyWeight: Double = 0
    /// Guards switched off, for the regression check's must-fail runs only (WatchGuard.swift):
    /// always empty on the box.
    public var guardsOff: Set<WatchGuard> = []

    /// The receiver's wander, measured while anchored: the spread of the distance to the anchor
    /// about its own slow mean (over `swingSpan`), averaged over `noiseSpan`. It starts at
    /// `noisePrior` and never goes below `noiseFloor`.
    public var noiseFloor: Meters = 1.5
    public var noisePrior: Meters = 5
    public var noiseSpan: Duration = .seconds(1800)
    /// The prior counts as this much measurement: a receiver that is calm for its first minutes
    /// doesn't talk the watch out of its caution at once.
    public var noisePriorSpan: Duration = .seconds(600)
    public var swingSpan: Duration = .seconds(300)
    /// The alert radius that rings reliably clears the swing by this many wanders; a smaller one
    /// gets the radius advice.
    public var reliableMargin: Double = 2

    /// A fix older than this no longer counts: can't judge.
    public var staleAfter: Duration = .seconds(10)
    /// Fixes whose accuracy is worse than this share of the alert radius are not evidence.
    /// gpsd's eph is a pessimistic 95% figure (HDOP x 19 m on gpsd 3.22), hence a share above 1.
    public var accuracyLimitFraction: Double = 2.0
    /// Fastest a boat at anchor can plausibly move, m/s; faster jumps are a receiver gone mad.
    public var maxPlausibleSpeed: Double = 15
    /// A leap between fixes no boat makes: once the receiver's step between consecutive fixes
    /// has been measured at anchor for `swingSpan` (before, `jumpStepPrior`), a fix farther from
    /// the last (up to 3 s before) than `jumpSpeed` (m/s, 10 kn: faster than any boat drags)
    /// times the time between, plus `jumpSlack` times that step's RMS, while the receiver's
    /// speed, smoothed and in that reading, says the boat is not moving away, shows the receiver
    /// leaping (multipath), not the boat: until a fix stands inside the alert radius again, the
    /// fixes beyond it count only once persistent or with the Doppler (`Watch.afterJump`;
    /// Docs/verdict.md, "Leaping fixes").
    public var jumpSpeed: Double = 5
    public var jumpSlack: Double = 4
    /// Until the step has been measured for `swingSpan`, a leap is judged against this step
    /// (m) or the step measured so far, whichever is larger: the wander's own prior
    /// (`noisePrior`, 5 m), more than a receiver at anchor steps in a second, so a leap in a
    /// night's first minutes must clear 25 m in a second (leaps come then as at any other time:
    /// with no leap judged before the step was measured, 10 of the benchmark's 100 good leaps
    /// nights rang in their first 423 s).
    public var jumpStepPrior: Double = 5

    /// Armed and unable to judge for this long (counted as time can't judge less time judging,
    /// so sparse readings add up and one usable fix doesn't start it again) raises the GPS fault
    /// (the fault pattern, never the drag siren).
    public var gpsGrace: Duration = .seconds(60)
    public var snooze: Duration = .seconds(300)

    /// A mark averages the good fixes of the last `markSpan`, at most `markFixes` of them, and
    /// needs at least `markMinFixes`.
    public var markSpan: Duration = .seconds(10)
    public var markFixes: Int = 5
    public var markMinFixes: Int = 3
    /// A mark by bearing and distance further than this from the boat is refused.
    public var markMaxOffset: Meters = 1000

    public init() {}

    /// The most evidence one fix can add: a second's worth at the fastest rate.
    var evidencePerFix: Double { confirmation.seconds / max(fastest.seconds, 1e-9) }
    /// The most one fix can add, the Doppler's share included: more than that is Checking.
    var mostPerFix: Double { max(evidencePerFix, confirmation.seconds / max(dopplerFastest.seconds, 1e-9)) }

    /// What is wrong with these settings taken together: each line says which rule of the
    /// evidence it would break. Empty when they are sound.
    public var problems: [String] {
        var out: [String] = []
        if minFixes < 2 {
            out.append("watch.min_fixes must be 2 or more: one stray GPS reading must never judge the position")
        }
        if window.seconds < Double(minFixes) {
            out.append("watch.window must be at least watch.min_fixes seconds: a 1 Hz receiver could never give enough readings to judge")
        }
        if fastest.seconds < 2 {
            out.append("watch.fastest must be 2 s or more: one stray GPS reading could ring the alarm")
        }
        if confirmation < fastest {
            out.append("watch.confirmation must be at least watch.fastest: no drag can ring faster than the fastest")
        }
        if deadband < 0.5 {
            out.append("watch.deadband must be 0.5 or more: the receiver's own wander would build evidence")
        }
        if dopplerFastest.seconds < 2 {
            out.append("watch.doppler_fastest must be 2 s or more: one stray GPS reading could ring the alarm")
        }
        if dopplerDeadband < 0 {
            out.append("watch.doppler_deadband must be 0 or more: a boat inside the alert radius would build evidence")
        }
        if dopplerThreshold < 2 || dopplerMinimum < 0.05 {
            out.append("watch.doppler_threshold must be 2 or more and watch.doppler_minimum 0.05 m/s or more: the receiver's own speed noise would hasten the alarm")
        }
        if !(dopplerSpan.seconds >= 1) {
            out.append("watch.doppler_span must be 1 s or more: one speed reading would decide")
        }
        if memory < confirmation {
            out.append("watch.memory must be at least watch.confirmation: a drag through dropouts would never add up")
        }
        if noiseFloor > noisePrior {
            out.append("watch.noise_floor must be at most watch.noise_prior")
        }
        if swingSpan > noiseSpan {
            out.append("watch.swing_span must be at most watch.noise_span: the wander is measured about the swing")
        }
        return out
    }
}
