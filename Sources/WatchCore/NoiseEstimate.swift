/// The receiver's wander, as the watch measures it while anchored: beside `SwingEstimator`, the
/// other estimate the watch keeps of the boat's fixes. `Watch.addSample` feeds it each fix.
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
        var usualAccuracy: Double?
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

        /// The reported speed tells something the positions don't: measured for a minute, and
        /// differing from the positions' own change by at least `doppler_independence` of it.
        /// A speed worked out from the positions moves with their wander and is never evidence.
        public func speedIndependent(_ s: WatchSettings) -> Bool {
            pairsFor >= 60 && speedMiss > s.dopplerIndependence * moveSquare
        }

        /// The radial speed's spread, m/s: measured, or the prior until measured, never below the floor.
        public func radialSigma(_ s: WatchSettings) -> Double {
            let prior = s.dopplerPrior * s.dopplerPrior
            return max(s.dopplerFloor, max(radialVariance ?? prior, radialRecentVariance ?? 0).squareRoot())
        }

        /// The reported speed says the boat moves away from the anchor: faster than the slowest
        /// drag the Doppler is trusted for, and by `doppler_threshold` of its own spread.
        public func movingAway(_ s: WatchSettings) -> Bool {
            speedIndependent(s) && radialSpeed > max(s.dopplerMinimum, s.dopplerThreshold * radialSigma(s))
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

        /// How much more than the receiver's measured wander this fix may wander (at least 1).
        func wanderScale(weak: Bool, accuracy: Double?, _ settings: WatchSettings) -> Double {
            var scale = 1.0
            if weak { scale = weakScale }
            // A reported accuracy varies with the satellites in view; only one more than twice the
            // usual (a burst of poor readings) says this fix wanders more, and by no more than the
            // accuracy itself says: half of it (a 95% figure is about two of its own wanders) on top
            // of the measured wander. A receiver whose usual is far below its measured wander (RTK:
            // 0.02 m against a swing's yaw of 1.5 m) would otherwise have 0.8 m taken as 20 wanders.
            if let accuracy, let usual = usualAccuracy, usual > 0 {
                scale = max(scale, min(accuracy / (2 * usual), 1 + accuracy / (2 * sigma(settings))))
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
        mutating func followRadialSpeed(_ radial: Double?, gap dt: Double, _ settings: WatchSettings) -> Bool {
            let span = settings.dopplerSpan.seconds
            if dt > 1 { radialSpeed *= expCore(-(dt - 1) / span) }
            let a = min(min(dt, 1) / span, 1)
            radialSpeed += a * ((radial ?? 0) - radialSpeed)
            return radial != nil && movingAway(settings)
        }

        /// What a holding fix tells of the receiver's weak fixes, its usual accuracy and its radial speed.
        mutating func learnFix(weak: Bool, distance: Double, accuracy: Double?, gap: Double, _ settings: WatchSettings) {
            let dt = min(gap, 10)
            let b = min(dt / min(settings.noiseSpan.seconds, measuredFor + settings.noisePriorSpan.seconds), 1)
            if weak, let level = level {
                // Learnt over the weak fixes' own time: 2D stretches come and go, and a rate set by
                // all the fixes' time would take hours of them to learn how far they wander.
                weakFor += dt
                let bw = min(dt / min(settings.noiseSpan.seconds, weakFor + settings.noisePriorSpan.seconds), 1)
                let r = distance - level
                let w = weakVariance ?? variance ?? settings.noisePrior.value * settings.noisePrior.value
                weakVariance = w + bw * (r * r - w)
            }
            if let accuracy {
                let u = usualAccuracy ?? accuracy
                usualAccuracy = u + b * (accuracy - u)
            }
            let prior = settings.dopplerPrior * settings.dopplerPrior
            let rv = radialVariance ?? prior
            let square = radialSpeed * radialSpeed
            radialVariance = rv + b * (square - rv)
            let recent = settings.dopplerRecentSpan.seconds
            if recent > 0 {
                let rr = radialRecentVariance ?? prior
                let br = min(dt / min(recent, measuredFor + settings.noisePriorSpan.seconds), 1)
                radialRecentVariance = rr + br * (square - rr)
            }
        }

        /// Compares the reported radial speed with the change of the distance since the last fix.
        mutating func learnSpeedSource(distance: Double, radial: Double?, at t: Instant, _ settings: WatchSettings) {
            guard let radial, let last = lastRadial else { return }
            let dt = (t - last.at).seconds
            guard dt > 0, dt <= 2 else { return }
            // A speed worked out from the last two positions equals this change exactly.
            let move = (distance - last.distance) / dt, miss = move - radial
            pairsFor += dt
            let b = min(dt / min(settings.noiseSpan.seconds, pairsFor), 1)
            moveSquare += b * (move * move - moveSquare)
            speedMiss += b * (miss * miss - speedMiss)
        }

        /// The slow mean of the distance (the level, and the swing it has reached) and the wander about it.
        mutating func learnLevel(distance: Double, gap: Double, _ settings: WatchSettings) {
            let dt = min(gap, 10)
            guard let current = level else {
                level = distance
                swing = distance
                measuredFor = 0
                return
            }
            measuredFor += dt
            let a = dt / min(settings.swingSpan.seconds, measuredFor)
            let next = current + min(a, 1) * (distance - current)
            level = next
            swing = max(swing, next)
            let prior = settings.noisePrior.value * settings.noisePrior.value
            let v = variance ?? prior
            let r = distance - next
            let b = dt / min(settings.noiseSpan.seconds, measuredFor + settings.noisePriorSpan.seconds)
            variance = v + min(b, 1) * (r * r - v)
        }
    }
}
