import WatchCore

/// The snapshot is one of the box's parts: `Box.refresh` shows it every status with the parts'
/// Systems Check rows, and it writes when what a reader would print changed, or at its steady
/// rate. A clean stop removes it: readers say "not running" at once, not "not answering".
extension SnapshotWriter: Part, BoxObserver {
    var shown: BoxObserver? { self }

    func show(_ status: WatchStatus, now: Instant) { show(status, checks: [], now: now) }

    func show(_ status: WatchStatus, checks: [SystemsCheck.Row], now: Instant) {
        publish(status, now: now, localRows: checks)
    }

    func nextDeadline(now: Instant) -> Instant? { nextDeadline() }

    func stop(now: Instant) { remove() }
}
