/// ankerwache's up/down counter: each location is averaged into a running position
/// (new = (old + fix) / 2); a smoothed position outside counts up by one, inside counts down by
/// one (not below zero), and the alarm sounds while the count is at least 10.
///
/// Source read: mRcSchwering/ankerwache, `src/AnchorWatchView.tsx` (`averageLocation`,
/// `ANCHOR_WATCH_MARGIN = 10`, the count's `d + 1` / `max(d - 1, 0)`), and `src/hooks.tsx`
/// (location updates requested every 5000 ms), so it takes one fix every 5 s.
struct AnkerwacheRule: PeerRule {
    static let margin = 10
    static let interval = 5.0
    private var smoothed: Offset?
    private var count = 0
    private var next = 0.0

    mutating func take(t: Double, offset: Offset?, radius: Double) -> Bool {
        guard let offset, t >= next else { return count >= AnkerwacheRule.margin }
        next = t + AnkerwacheRule.interval
        let s = smoothed.map { Offset(east: ($0.east + offset.east) / 2, north: ($0.north + offset.north) / 2) } ?? offset
        smoothed = s
        count = s.length > radius ? count + 1 : max(count - 1, 0)
        return count >= AnkerwacheRule.margin
    }
}
