/// One fix beyond the radius rings.
///
/// Sources read: Signal K anchor alarm plugin (sbender9/signalk-anchoralarm-plugin, index.js,
/// `checkPosition`): with the default `delay` of 0 the notification goes out on the first
/// position whose distance exceeds the radius. OpenCPN's watchdog_pi (seandepagnier/watchdog_pi,
/// Alarm.cpp, `AnchorAlarm::Test`): "distance > radius", tested on each fix. AvNav's anchor watch
/// is the same test on each position (its users' false-alarm reports, AvNav issue #614).
struct OneFixRule: PeerRule {
    mutating func take(t: Double, offset: Offset?, radius: Double) -> Bool {
        guard let distance = offset?.length else { return false }
        return distance > radius
    }
}
