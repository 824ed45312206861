/// Yokuli's anchor watch: outside on 3 fixes in a row, or outside continuously for 8 s; any fix
/// inside resets both.
///
/// Source read: ohkuku/yokuli_nmea_anchor_alarm, `domain/anchor/AlarmEngine.kt` (`onFix`:
/// `requiredFixes = 3`, `persistenceMillis = 8_000`; alarm when outside and the count or the
/// time is reached; an inside fix clears `outsideSince` and the count).
struct YokuliRule: PeerRule {
    static let requiredFixes = 3
    static let persistence = 8.0
    private var count = 0
    private var since: Double?

    mutating func take(t: Double, offset: Offset?, radius: Double) -> Bool {
        guard let distance = offset?.length else { return false }
        guard distance > radius else {
            count = 0
            since = nil
            return false
        }
        count += 1
        let start = since ?? t
        since = start
        return count >= YokuliRule.requiredFixes || t - start >= YokuliRule.persistence
    }
}
