import WatchCore

/// What waits for the next sync, and when it is due: the batch (verdict changes, faults, track
/// fixes), the track's decimation by pace, the flush ages. No I/O here.
extension Journal {
    /// Keeps a record for the next sync (no I/O).
    public func batch(_ record: JournalRecord, pace: TrackPace, at stamp: Stamp) {
        let frame = Self.frame(record, at: stamp)
        pending.append(frame)
        pendingBytes += frame.count
        if pendingSince == nil { pendingSince = stamp.monotonic }
        if pace == .attention { pendingAttention = true }
        if record.type.flushesPromptly {
            let due = lastPromptSync.map { max(stamp.monotonic, $0 + limits.attentionFlushAge) } ?? stamp.monotonic
            promptDue = min(promptDue ?? due, due)
        }
        // While failed, nothing drains the batch: keep the newest, bounded.
        while pendingBytes > JournalConstants.maxPendingBytes, !pending.isEmpty {
            pendingBytes -= pending.removeFirst().count
        }
    }

    /// Keeps a track fix if the pace wants it: every fix in attention, one per interval when calm.
    /// `batchAs`: the pace the batch's flush age follows, where it is not `pace` (a fix kept
    /// for its distance, whatever the pace, flushes as the watch's pace says).
    public func track(_ fix: TrackFix, pace: TrackPace, batchAs: TrackPace? = nil, at stamp: Stamp) {
        if pace == .calm, let last = lastTrack, stamp.monotonic - last < limits.calmTrackInterval,
            stamp.monotonic >= last
        {
            stats.tracksDropped += 1
            return
        }
        lastTrack = stamp.monotonic
        stats.tracksKept += 1
        batch(.trackFix(fix), pace: batchAs ?? pace, at: stamp)
    }

    /// When the loop must call `flushIfDue`: the batch's flush age or size, or a failed journal's
    /// retry. nil when nothing waits.
    public var nextDeadline: Instant? {
        if failure != nil { return retryAt }
        guard let since = pendingSince else { return nil }
        if pendingBytes >= limits.batchBytes { return since }
        let aged = since + (pendingAttention ? limits.attentionFlushAge : limits.calmFlushAge)
        return promptDue.map { min($0, aged) } ?? aged
    }

    public func flushIfDue(at stamp: Stamp) -> WriteResult {
        guard let due = nextDeadline, stamp.monotonic >= due else { return .nothing }
        return flush(at: stamp)
    }
}
