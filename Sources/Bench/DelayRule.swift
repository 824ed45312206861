/// The radius plus a delay: the first fix outside starts a timer, any fix inside clears it, and
/// the alarm goes out on a fix outside once the timer has run longer than the delay.
///
/// Source read: Signal K anchor alarm plugin (sbender9/signalk-anchoralarm-plugin, index.js,
/// `checkPosition` with the `delay` option, "Send an alarm after the boat has been outside of the
/// alarm radius for the given time"): `delayStartTime` is set on the first outside position,
/// reset on an inside one, and the state is returned when `(now - delayStartTime) > delay`.
/// watchdog_pi's alarms carry the same "test must hold for the delay" behaviour per check.
struct DelayRule: PeerRule {
    let delay: Double
    private var since: Double?

    init(delay: Double) { self.delay = delay }

    mutating func take(t: Double, offset: Offset?, radius: Double) -> Bool {
        guard let distance = offset?.length else { return false }
        guard distance > radius else {
            since = nil
            return false
        }
        let start = since ?? t
        since = start
        return t - start > delay
    }
}
