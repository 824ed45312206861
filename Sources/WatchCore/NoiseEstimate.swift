// The receiver's noise as the watch learns it while anchored, beside the swing's own estimator
// (`SwingEstimator`): its wander about the swing, its weak fixes and usual accuracy, and whether
// its reported speed tells anything the positions don't. The watch owns one (`Watch.noise`)
// and feeds it each holding fix.

extension Watch {
    /// The receiver's wander as the watch measures it while anchored: the distance to the anchor
    /// about its own slow mean (the swing), in a running root mean square.
    public struct NoiseEstimate: Hashable, Sendable {
        /// The slow mean of the distance to the anchor (where the boat lies), meters.
        public internal(set) var level: Double?
        /// The farthest that slow mean has been since the anchor was marked: the swing, meters.
        public internal(set) var swing: Double = 0
        var variance: Double?
        /// Seconds of fixes the measurement has seen.
        public internal(set) var measuredFor: Double = 0
        var lastAt: Instant?
        /// The spread of the weak fixes (2D, or no accuracy) about the same level, learnt like
        /// `variance`.
        var weakVariance: Double?
        /// The receiver's usual reported accuracy (meters), learnt like `variance`.
        public internal(set) var usualAccuracy: Double?
        /// The reported speed over ground along the line from the anchor to the boat (m/s,
        /// positive away), smoothed over `doppler_span`; its measured spread while holding.
        public internal(set) var radialSpeed: Double = 0
        var radialVariance: Double?
        /// The same spread over `doppler_recent_span`.
        var radialRecentVariance: Double?
        /// Seconds of weak fixes the measurement has seen.
        var weakFor: Double = 0
        /// Whether the reported speed is the receiver's own (Doppler) or worked out from its
        /// positions (as gpsd does for a receiver that reports none): the mean square of the
        /// change in distance per second, and of its difference from the reported radial speed,
        /// over `pairsFor` seconds of consecutive holding fixes.
        var lastRadial: RadialFix?
        public internal(set) var moveSquare = 0.0
        public internal(set) var speedMiss = 0.0
        public internal(set) var pairsFor = 0.0
        /// The same over longer lags (2 to `speedLags` s: the move since a holding fix about that
        /// many seconds before, along the line from the anchor as it lies now): a speed worked
        /// out over several seconds (a smoothed SOG) equals the move over its own span. (Along
        /// the line as it lies now, not the change of distance: a boat swinging across that line
        /// moves along it by its curvature, which the lag-1 change hardly shows but 10 s does.)
        /// `lagFixes` holds a holding fix a second, at most `speedLags`, newest last.
        var lagFixes: [PlacedFix] = []
        public internal(set) var lagMoveSquare: [Double] = []
        public internal(set) var lagMiss: [Double] = []
        static let speedLags = 10
        /// The two radial speeds reported before this one (m/s; 0 for a reading without a
        /// plausible speed): the smoothed speed follows the median of the last three, so one
        /// reading's speed never moves it.
        var priorRadial = 0.0, priorRadial2 = 0.0
        /// This reading said every word of `movingAway` but the readings' holding their speed,
        /// which alone kept the Doppler from hastening: the boat moves away at a falling speed.
        public internal(set) var slowing = false
        /// The median of the last three readings' radial speeds (m/s): what the readings say now.
        public internal(set) var currentRadial = 0.0
        /// `currentRadial` of each second over the last `doppler_slowing_span`, summed, oldest
        /// first (at most that many and two): how fast the readings carried the boat away lately,
        /// a second at a time whatever the receiver's rate.
        var recentSeconds: [RecentSecond] = []
        struct RecentSecond: Hashable, Sendable {
            var at: Instant
            var sum: Double
            var count: Double
            var mean: Double { sum / count }
        }
        /// The change of the distance per second, smoothed over `doppler_span` like the radial
        /// speed (the track's own radial speed), and the fix it was last taken from.
        public internal(set) var trackSpeed: Double = 0
        var lastTrack: RadialFix?
        /// What the speed has earned at anchor: the fastest smoothed radial speed away from the
        /// anchor that the track agreed with and that the boat then gave back (the smoothed speed
        /// came back to nothing or toward the anchor), m/s, kept while the anchor is down; the
        /// fastest of the outward stretch under way, not yet given back; seconds of fixes about the
        /// mark that measured it (every verdict: a drag never teaches the reach, below). A drag never gives its speed back, so it never teaches the reach.
        public internal(set) var speedReach = 0.0
        var pendingReach = 0.0
        public internal(set) var reachFor = 0.0
        /// What the position has shown at anchor: the farthest a fix stood from where the boat
        /// lay just before (the quick level, `quickLevel`), either way, in an outing that came
        /// back across it within `wanderOutingSpan` (m), fading over `wanderReachSpan`. Learnt
        /// from every fix, whatever the evidence: a receiver's rare quick excursions (20 to 30 m
        /// out and back within a minute, heavy tails its RMS wander hardly shows) are the ones
        /// that build evidence. A drag never comes back, so it never teaches the reach.
        public internal(set) var wanderReach = 0.0
        /// The distance's mean over `wanderQuickSpan` (m), and the outing under way about it:
        /// the reach's. Against the slow level a slow wander holds the fixes on one side for
        /// minutes, and an excursion riding on it never crossed back within the span.
        var quickLevel: Double?
        var quickOuting = Outing()
        /// The longest quick outing beyond the level (s): one that came back across it within
        /// `wanderOutingSpan`, fading over `wanderReachSpan` as the reach does. A run of fixes
        /// beyond the alert radius longer than this (and `persistFloor`) is the persistence
        /// path's (Docs/verdict.md, "Persistence"). Measured about the slow level, the outing
        /// under way `levelOuting`: persistence's margin was set on outings measured so.
        public internal(set) var outingLongest = 0.0
        var levelOuting = Outing()
        /// The receiver's step: the mean square of the move between consecutive holding fixes up
        /// to 1.5 s apart (m², the boat's own motion and the fix's jitter together), measured over
        /// `stepFor` seconds; the fix it was last taken from. A fix that leaps far beyond it is a
        /// jump (`WatchSettings.jumpSpeed`).
        public internal(set) var stepSquare = 0.0
        public internal(set) var stepFor = 0.0
        var lastStep: PlacedFix?

        /// What the wander measurement has learnt, to be kept across a restart with the swing's
        /// memory (`SwingEstimator.Memory.wander`, the journal's swing record): where the boat
        /// lies and the swing of that mean, the wander about it and for how long it was measured,
        /// the weak fixes' wander, the usual accuracy. Restored, the watch judges with the wander
        /// it judged with before the restart, and says it (the radius line's "wander of about N
        /// m", how far beyond the radius it rings) at once, not after measuring it again. The
        /// quick excursions' reach and longest outing come back with it: without them a restart
        /// would judge a receiver that runs out and back as if it never had, and persistence
        /// would wait its floor alone. The speed's trust is learnt again (until then the speed
        /// is not trusted, as at a new mark).
        public struct Memory: Hashable, Sendable {
            public var level: Double
            public var swing: Double
            public var variance: Double
            public var measuredFor: Double
            public var weakVariance: Double?
            public var weakFor: Double
            public var usualAccuracy: Double?
            /// The excursion reach (`wanderReach`, m) and the longest quick outing
            /// (`outingLongest`, s); nil when the memory was kept without them (a journal of
            /// version 5): the reach is learnt again, and the outing taken as the longest a quick
            /// one can be (`wanderOutingSpan`), so persistence waits for the most it could need.
            public var reach: Double?
            public var outingLongest: Double?
            public init(level: Double, swing: Double, variance: Double, measuredFor: Double, weakVariance: Double?,
                        weakFor: Double, usualAccuracy: Double?, reach: Double? = nil, outingLongest: Double? = nil) {
                self.level = level
                self.swing = swing
                self.variance = variance
                self.measuredFor = measuredFor
                self.weakVariance = weakVariance
                self.weakFor = weakFor
                self.usualAccuracy = usualAccuracy
                self.reach = reach
                self.outingLongest = outingLongest
            }
        }

        /// What has been measured, or nil before the wander has been (a first fix sets the level).
        public var memory: Memory? {
            guard let level, let variance else { return nil }
            return Memory(level: level, swing: swing, variance: variance, measuredFor: measuredFor,
                          weakVariance: weakVariance, weakFor: weakFor, usualAccuracy: usualAccuracy,
                          reach: wanderReach, outingLongest: outingLongest)
        }

        /// The wander as `memory` kept it; a memory that is not plausible (not finite, negative)
        /// is left out, and the wander is measured again from nothing. A memory without the
        /// longest outing takes `outingBound`, the longest a quick outing can be.
        mutating func restore(_ m: Memory, outingBound: Double) {
            func ok(_ v: Double) -> Bool { v.isFinite && v >= 0 }
            guard ok(m.level), ok(m.swing), ok(m.variance), ok(m.measuredFor), ok(m.weakFor),
                  m.weakVariance.map(ok) ?? true, m.usualAccuracy.map(ok) ?? true,
                  m.reach.map(ok) ?? true, m.outingLongest.map(ok) ?? true
            else { return }
            wanderReach = m.reach ?? 0
            outingLongest = min(m.outingLongest ?? outingBound, outingBound)
            level = m.level
            swing = max(m.swing, m.level)
            variance = m.variance
            measuredFor = m.measuredFor
            weakVariance = m.weakVariance
            weakFor = min(m.weakFor, m.measuredFor)
            usualAccuracy = m.usualAccuracy
        }

        /// The reported speed tells something the positions don't: measured for a minute, and
        /// differing from the positions' own change by at least `doppler_independence` of it.
        /// A speed worked out from the positions moves with their wander and is never evidence.
        public func speedIndependent(_ s: WatchSettings) -> Bool {
            guard pairsFor >= 60, speedMiss > s.dopplerIndependence * moveSquare else { return false }
            if s.guardsOff.contains(.speedLags) { return true }
            for k in lagMiss.indices where !(lagMiss[k] > s.dopplerIndependence * lagMoveSquare[k]) { return false }
            return true
        }

        /// The radial speed's spread, m/s: measured, or the prior until measured, never below the floor.
        public func radialSigma(_ s: WatchSettings) -> Double {
            let prior = s.dopplerPrior * s.dopplerPrior
            return max(s.dopplerFloor, max(radialVariance ?? prior, radialRecentVariance ?? 0).squareRoot())
        }

        /// The reported speed says the boat moves away from the anchor: faster than the slowest
        /// drag the Doppler is trusted for, and by `doppler_threshold` of its own spread.
        /// The track agrees: the distance grew over the same span by at least `doppler_agreement`
        /// of what the speed says.
        /// Only faster than the receiver's reach at anchor by `doppler_trust_margin`, once measured
        /// for `doppler_trust_span`: a speed that moves with the position's excursions reaches
        /// as far at anchor, and is trusted for nothing slower.
        /// And the readings still carry the boat away as fast as the smoothed speed must: the
        /// median of the last three readings' radial speeds stands above `doppler_minimum` and
        /// `doppler_trust_margin` times the reach, the same bar (the smoothed speed keeps much of
        /// its value for a while after the boat stopped, and an excursion's readings fall back
        /// below the bar while its smoothed speed still stands above it).
        public func movingAway(_ s: WatchSettings) -> Bool {
            saysAway(s) && (s.guardsOff.contains(.dopplerSlowing) || holdsItsSpeed(s))
        }

        /// The words of `movingAway` before the readings' holding their speed.
        func saysAway(_ s: WatchSettings) -> Bool {
            speedIndependent(s) && radialSpeed > max(ownBar(s), trustedAbove(s))
                && (s.guardsOff.contains(.dopplerTrack) || trackSpeed >= s.dopplerAgreement * radialSpeed)
                && (s.guardsOff.contains(.dopplerNow) || currentRadial > max(s.dopplerMinimum, trustedAbove(s)))
        }

        /// This second stands no further below the fastest of the span than `doppler_slowing`, or
        /// `doppler_slowing_share` of the fastest if that is more (the fastest found once).
        func holdsItsSpeed(_ s: WatchSettings) -> Bool {
            let peak = recentPeak
            return recentNow >= peak - max(s.dopplerSlowing, s.dopplerSlowingShare * peak)
        }

        /// How fast the readings carry the boat away this second (m/s): the mean `currentRadial`
        /// of the second so far.
        public var recentNow: Double { recentSeconds.last?.mean ?? currentRadial }
        /// The fastest the readings carried the boat away over the last `doppler_slowing_span`
        /// (m/s): the fastest second's mean `currentRadial` in it.
        public var recentPeak: Double { recentSeconds.reduce(recentNow) { max($0, $1.mean) } }

        /// Keeps `recentSeconds`: this reading's `currentRadial` joins its second, and the seconds
        /// older than the span leave (a bounded few, whatever the rate or the clock does).
        mutating func followRecentSeconds(_ now: Double, at t: Instant, settings s: WatchSettings) {
            let span = s.dopplerSlowingSpan.seconds
            if let last = recentSeconds.last, (t - last.at).seconds >= 0, (t - last.at).seconds < 1 {
                recentSeconds[recentSeconds.count - 1].sum += now
                recentSeconds[recentSeconds.count - 1].count += 1
            } else {
                recentSeconds.append(RecentSecond(at: t, sum: now, count: 1))
            }
            var old = 0
            while old < recentSeconds.count, (t - recentSeconds[old].at).seconds > span { old += 1 }
            let most = Int(min(max(span, 0), 60)) + 2
            old = max(old, recentSeconds.count - most)
            if old > 0 { recentSeconds.removeFirst(old) }
        }

        /// The radial speed (m/s) the speed must clear to say the boat moves away, by its own
        /// spread alone: faster than the slowest drag the Doppler is for (`doppler_minimum`) and
        /// by `doppler_threshold` of its spread. `movingAway` asks the trusted bar besides.
        func ownBar(_ s: WatchSettings) -> Double {
            max(s.dopplerMinimum, s.dopplerThreshold * radialSigma(s))
        }

        /// The slowest radial speed (m/s) the receiver's speed is trusted for: infinite until
        /// measured for `doppler_trust_span`, then `doppler_trust_margin` times its reach.
        public func trustedAbove(_ s: WatchSettings) -> Double {
            if s.guardsOff.contains(.dopplerTrust) { return 0 }
            return reachFor >= s.dopplerTrustSpan.seconds ? s.dopplerTrustMargin * speedReach : .infinity
        }

        /// How many times the receiver's wander its weak fixes (2D, or no accuracy) wander, as
        /// measured (1 until they wander more).
        public var weakScale: Double {
            guard let w = weakVariance, let v = variance, w > v, v > 0 else { return 1 }
            return (w / v).squareRoot()
        }

        /// One wander, meters: the measured spread, or the prior until measured, never below the floor.
        public func sigma(_ s: WatchSettings) -> Double {
            max(s.noiseFloor.value, (variance ?? s.noisePrior.value * s.noisePrior.value).squareRoot())
        }

        // MARK: - Learning, from each holding fix (`Watch.addSample`)

        /// How much more than the receiver's measured wander this fix may wander (at least 1).
        func wanderScale(weak: Bool, accuracy: Double?, settings s: WatchSettings) -> Double {
            var scale = 1.0
            if weak { scale = weakScale }
            // A reported accuracy varies with the satellites in view; only one more than twice the
            // usual (a burst of poor readings) says this fix wanders more, and by no more than the
            // accuracy itself says: half of it (a 95% figure is about two of its own wanders) on top
            // of the measured wander. A receiver whose usual is far below its measured wander (RTK:
            // 0.02 m against a swing's yaw of 1.5 m) would otherwise have 0.8 m taken as 20 wanders.
            if let accuracy, let usual = usualAccuracy, usual > 0 {
                scale = max(scale, min(accuracy / (2 * usual), 1 + accuracy / (2 * sigma(s))))
            }
            return scale
        }

        /// A fix whose reported accuracy is more than twice the receiver's usual: a burst of poor readings.
        func isBurst(_ accuracy: Double?) -> Bool {
            guard let accuracy, let usual = usualAccuracy, usual > 0 else { return false }
            return accuracy > 2 * usual
        }

        /// Smooths the radial speed over `doppler_span` (a reading without a speed, or `gap`
        /// seconds since the last fix, lets it fade toward nothing) and says whether it carries the
        /// boat away.
        /// The speed followed is the median of the last three readings' (one reading's speed never
        /// moves it); the track's change of distance is smoothed alike, to be compared with it.
        mutating func followRadialSpeed(_ radial: Double?, gap dt: Double, distance: Double, at t: Instant, settings s: WatchSettings) -> Bool {
            let span = s.dopplerSpan.seconds
            if dt > 1 {
                radialSpeed *= expCore(-(dt - 1) / span)
                trackSpeed *= expCore(-(dt - 1) / span)
            }
            let a = min(min(dt, 1) / span, 1)
            let now = radial ?? 0
            let p1 = priorRadial, p2 = priorRadial2
            let followed = s.guardsOff.contains(.dopplerOneReading) ? now : max(min(now, p1), min(max(now, p1), p2))
            currentRadial = followed
            followRecentSeconds(followed, at: t, settings: s)
            priorRadial2 = p1
            priorRadial = now
            radialSpeed += a * (followed - radialSpeed)
            if let last = lastTrack {
                let step = (t - last.at).seconds
                if step > 0, step <= 2 { trackSpeed += a * ((distance - last.distance) / step - trackSpeed) }
            }
            lastTrack = RadialFix(at: t, distance: distance)
            learnReach(dt: min(dt, 10), settings: s)
            let says = radial != nil && saysAway(s)
            let holds = s.guardsOff.contains(.dopplerSlowing) || holdsItsSpeed(s)
            slowing = says && !holds
            return says && holds
        }

        /// What a holding fix tells of the receiver's weak fixes, its usual accuracy and its radial speed.
        mutating func learnFix(weak: Bool, distance: Double, accuracy: Double?, gap: Double, settings s: WatchSettings) {
            let dt = min(gap, 10)
            let b = min(dt / min(s.noiseSpan.seconds, measuredFor + s.noisePriorSpan.seconds), 1)
            if weak, let level = level {
                // Learnt over the weak fixes' own time: 2D stretches come and go, and a rate set by
                // all the fixes' time would take hours of them to learn how far they wander.
                weakFor += dt
                let bw = min(dt / min(s.noiseSpan.seconds, weakFor + s.noisePriorSpan.seconds), 1)
                let r = distance - level
                let w = weakVariance ?? variance ?? s.noisePrior.value * s.noisePrior.value
                weakVariance = w + bw * (r * r - w)
            }
            if let accuracy {
                let u = usualAccuracy ?? accuracy
                usualAccuracy = u + b * (accuracy - u)
            }
            let prior = s.dopplerPrior * s.dopplerPrior
            let rv = radialVariance ?? prior
            let square = radialSpeed * radialSpeed
            radialVariance = rv + b * (square - rv)
            let recent = s.dopplerRecentSpan.seconds
            if recent > 0 {
                let rr = radialRecentVariance ?? prior
                let br = min(dt / min(recent, measuredFor + s.noisePriorSpan.seconds), 1)
                radialRecentVariance = rr + br * (square - rr)
            }
        }

        /// The speed's reach at anchor (`NoiseEstimate.speedReach`), from a fix `dt` seconds after
        /// the last, whatever the evidence (the largest excursions are the ones that build it): a
        /// speed toward the anchor that the track agreed with counts at once (no drag moves toward
        /// the anchor, and a receiver's excursions come back as fast as they go out); one away from
        /// it once the boat gave it back.
        mutating func learnReach(dt: Double, settings s: WatchSettings) {
            reachFor += dt
            if let span = s.dopplerReachSpan { speedReach *= expCore(-dt / span.seconds) }
            let v = radialSpeed
            let agrees = abs(trackSpeed) >= s.dopplerAgreement * abs(v) && (trackSpeed > 0) == (v > 0)
            if v > 0 {
                if agrees { pendingReach = max(pendingReach, v) }
            } else {
                if agrees { speedReach = max(speedReach, -v) }
                if pendingReach > 0 {
                    speedReach = max(speedReach, pendingReach)
                    pendingReach = 0
                }
            }
        }

        /// Compares the reported radial speed with the change of the distance since the last fix.
        mutating func learnSpeedSource(distance: Double, east: Double, north: Double, radial: Double?, at t: Instant, settings s: WatchSettings) {
            guard let radial, let last = lastRadial else { return }
            let dt = (t - last.at).seconds
            guard dt > 0, dt <= 2 else { return }
            // A speed worked out from the last two positions equals this change exactly.
            let move = (distance - last.distance) / dt, miss = move - radial
            pairsFor += dt
            let b = min(dt / min(s.noiseSpan.seconds, pairsFor), 1)
            moveSquare += b * (move * move - moveSquare)
            speedMiss += b * (miss * miss - speedMiss)
            // Over longer lags, against the fix kept about that many seconds before (one a second,
            // so a 10 Hz receiver costs the same): a speed worked out over 3 to 10 s differs from
            // the change over its own span by nothing.
            let lags = Self.speedLags
            lagFixes.removeAll { t - $0.at > .seconds(Double(lags) + 0.5) }
            if lagMoveSquare.isEmpty {
                lagMoveSquare = Array(repeating: 0, count: lags - 1)
                lagMiss = Array(repeating: 0, count: lags - 1)
            }
            for f in lagFixes where distance >= 1 {
                let span = (t - f.at).seconds
                let k = Int(span.rounded()) - 2
                guard k >= 0, k < lags - 1 else { continue }
                let lagMove = ((east - f.east) * east + (north - f.north) * north) / (distance * span), lagMiss = lagMove - radial
                lagMoveSquare[k] += b * (lagMove * lagMove - lagMoveSquare[k])
                self.lagMiss[k] += b * (lagMiss * lagMiss - self.lagMiss[k])
            }
            if lagFixes.last.map({ (t - $0.at).seconds >= 0.95 }) ?? true {
                lagFixes.append(PlacedFix(at: t, east: east, north: north))
                if lagFixes.count > lags { lagFixes.removeFirst(lagFixes.count - lags) }
            }
        }

        /// The farthest a fix `dt` s after the last may lie from it before it is a leap
        /// (`WatchSettings.jumpSpeed`, `jumpSlack`), m: against the step measured at anchor once
        /// measured for `swingSpan`, before that against `jumpStepPrior` or what has been
        /// measured, whichever is larger.
        func leapAllowance(dt: Double, _ s: WatchSettings) -> Double {
            let measured = stepSquare.squareRoot()
            let step = stepFor >= s.swingSpan.seconds ? measured : max(s.jumpStepPrior, measured)
            return s.jumpSpeed * dt + s.jumpSlack * step
        }

        /// The step from the last fix to this one (east, north of the anchor, m), learnt when
        /// `learn` (the noise gate open) and the two are up to 1.5 s apart; never a leap's, so
        /// leaps do not widen what a leap is.
        mutating func learnStep(east: Double, north: Double, at t: Instant, learn: Bool, settings s: WatchSettings) {
            defer { lastStep = PlacedFix(at: t, east: east, north: north) }
            guard learn, let last = lastStep else { return }
            let dt = (t - last.at).seconds
            guard dt > 0, dt <= 1.5 else { return }
            let de = east - last.east, dn = north - last.north, square = de * de + dn * dn
            let allowed = leapAllowance(dt: dt, s)
            if square > allowed * allowed { return }
            stepFor += dt
            let b = min(dt / min(s.noiseSpan.seconds, stepFor), 1)
            stepSquare += b * (square - stepSquare)
        }

        mutating func learnNoise(distance: Double, gap: Double, at t: Instant, settings s: WatchSettings) {
            let dt = min(gap, 10)
            guard let level = level else {
                level = distance
                swing = distance
                measuredFor = 0
                return
            }
            measuredFor += dt
            let a = dt / min(s.swingSpan.seconds, measuredFor)
            let next = level + min(a, 1) * (distance - level)
            self.level = next
            swing = max(swing, next)
            let prior = s.noisePrior.value * s.noisePrior.value
            let v = variance ?? prior
            let r = distance - next
            let b = dt / min(s.noiseSpan.seconds, measuredFor + s.noisePriorSpan.seconds)
            variance = v + min(b, 1) * (r * r - v)
        }
    }

    /// An outing of the distance to one side of a level: when it started, its farthest from the
    /// level (m) and its side. `follow` takes each fix's excess over the level and returns the
    /// outing it ended, if that one came back within `span`.
    struct Outing: Hashable, Sendable {
        var start: Instant?
        var peak = 0.0
        var out = true

        mutating func follow(_ e: Double, at t: Instant, span: Duration) -> (peak: Double, seconds: Double, out: Bool)? {
            if start != nil, (e > 0) == out {
                peak = max(peak, abs(e))
                return nil
            }
            let ended = start.flatMap { t - $0 <= span ? (peak, (t - $0).seconds, out) : nil }
            start = t
            peak = abs(e)
            out = e > 0
            return ended
        }
    }
}
