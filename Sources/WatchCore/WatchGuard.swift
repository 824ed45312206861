/// The guards that keep the evidence rule quiet, by name, so the regression check can show that
/// removing one turns it red (`anchor-bench --check` with `ANCHOR_BOX_SET=off=NAME`,
/// scripts/test-bench.sh). Only the benchmark sets `WatchSettings.guardsOff`; the configuration
/// file has no key for it, and the box ships with every guard on.
public enum WatchGuard: String, Hashable, Sendable, CaseIterable {
    /// The Doppler hastens only a 3D fix with an accuracy, outside a burst of poor readings.
    case dopplerWeakOrBurst = "doppler-weak-or-burst"
    /// A weak fix among 3D ones counts only beyond `weakDeadband`.
    case weakDeadband = "weak-deadband"
    /// The wander, the usual accuracy and the speed's spread are learnt only while the evidence
    /// is no more than one fix could carry (a drag doesn't teach the watch that the receiver wanders).
    case noiseGate = "noise-gate"
    /// The Doppler follows the median of the last three readings' speed, and a radial speed
    /// faster than `dopplerPlausible` is no speed: one reading's speed never moves the deadband.
    case dopplerOneReading = "doppler-one-reading"
    /// The Doppler counts only while the track's change of distance agrees with it.
    case dopplerTrack = "doppler-track"
    /// The reported speed is compared with the change of distance over 2 to 10 s as well as over
    /// the last fix: a speed worked out from positions over several seconds is no Doppler.
    case speedLags = "speed-lags"
    /// The Doppler counts only where the receiver's speed has earned it at anchor: measured for
    /// `dopplerTrustSpan`, and faster than `dopplerTrustMargin` times its reach.
    case dopplerTrust = "doppler-trust"
    /// On position alone a fix counts only beyond the receiver's own excursions at anchor
    /// (`NoiseEstimate.wanderReach`) as well as beyond the radius.
    case wanderReach = "wander-reach"
    /// The excursion reach is learnt from outings about the distance's quick level
    /// (`WatchSettings.wanderQuickSpan`), so one riding on a slow wander still teaches it (off:
    /// about the slow level the wander is measured about).
    case wanderQuickLevel = "wander-quick-level"
    /// On position alone a fix that stands more than `turnBack` steps below the farthest of the
    /// last `turnSpan` adds no evidence: the fixes turned back (off: wherever it stands).
    case positionTurning = "position-turning"
    /// The Doppler hastens only while the readings themselves still carry the boat away (the
    /// median of the last three readings' radial speeds above `dopplerMinimum` and the same bar
    /// as the smoothed speed, `dopplerTrustMargin` times the speed's reach at anchor), not on the
    /// smoothed speed alone, which keeps much of its value for a while after the boat stopped.
    case dopplerNow = "doppler-now"
    /// The Doppler hastens only while the readings hold their speed: this second's mean of the
    /// median of the last three no more than `dopplerSlowing` (or `dopplerSlowingShare` of the
    /// fastest, if more) below the fastest second's over `dopplerSlowingSpan` (off: however fast
    /// they fall).
    case dopplerSlowing = "doppler-slowing"
    /// A fix that leapt from the last farther than a boat moves in the time (`jumpSpeed`,
    /// `jumpSlack` times the receiver's measured step) while the speed said the boat stayed:
    /// beyond the radius the fixes after it count only once persistent or with the Doppler.
    case jumps = "jumps"
    /// A leap is judged before the receiver's speed has earned its trust at anchor, and on a
    /// speed that fails the independence test: the step is physics, and the speed has only to
    /// fail to see it (off: only a trusted, independent speed calls a leap).
    case jumpsUntrusted = "jumps-untrusted"
    /// A persistence run needs only `persistFloor` where the receiver's speed saw it as the boat
    /// moving away, on average faster than `persistSpeed` times its spread (off: wherever the
    /// speed is independent, whatever it said).
    case persistSpeedAway = "persist-speed-away"
    /// ... and only where that speed is the receiver's own, not worked out from its positions
    /// (off: any speed).
    case persistSpeedIndependent = "persist-speed-independent"
    /// ... and only where over the last twice `persistFloor` that speed carried the boat at
    /// least `persistSpeedShare` of the way its fixes rose (off: whatever the fixes did before).
    case persistSpeedTrail = "persist-speed-trail"
    /// ... and only while the speed, smoothed, still carries the boat away by `persistSpeedNow`
    /// times its spread (off: whatever it says now).
    case persistSpeedNow = "persist-speed-now"
    /// A held run counts in full (`persistLeast`) only while its fix stands at least as far out
    /// as the run's mean distance (off: every fix of a held run beyond the radius).
    case persistRising = "persist-rising"
}
