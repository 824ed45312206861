import WatchCore

/// The snapshot is one of the box's observers: `Box.refresh` shows it every status, and it
/// writes when what a reader would print changed, or at its steady rate.
extension SnapshotWriter: BoxObserver {
    func show(_ status: WatchStatus, now: Instant) {
        publish(status, now: now, localRows: localRows?() ?? [])
    }

    func nextDeadline(now: Instant) -> Instant? { nextDeadline() }
}
