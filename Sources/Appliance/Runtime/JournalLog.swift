import Journal
import WatchCore

/// The journal as the box's `DecisionLog`: decisions and state changes appended and synced
/// before they are confirmed, the track batched at the pace the watch's state asks for.
final class JournalLog: DecisionLog {
    let journal: Journal
    /// The watch's current pace for the track (every fix while checking or ringing).
    var pace: () -> TrackPace = { .calm }
    private var events: [Event] = []
    private let wall: () -> Double

    init(journal: Journal, wall: @escaping () -> Double) {
        self.journal = journal
        self.wall = wall
    }

    private func stamp(_ now: Instant, _ wallSeconds: Double? = nil) -> Stamp {
        Stamp(monotonic: now, wall: WallTime(seconds: wallSeconds ?? wall()))
    }

    func record(_ actions: [Action], now: Instant, wall: Double) -> Bool {
        let r = journal.record(actions, pace: pace(), at: stamp(now, wall))
        events += r.events
        if case .notSaved = r.saved { return false }
        return true
    }

    func nextDeadline() -> Instant? { journal.nextDeadline }

    func flushIfDue(now: Instant) {
        events += journal.flushIfDue(at: stamp(now)).events
    }

    func takeEvents() -> [Event] {
        defer { events.removeAll() }
        return events
    }

    /// On SIGTERM: what is batched goes to disk, then the files close.
    func close(now: Instant) {
        _ = journal.flush(at: stamp(now))
        journal.close()
    }
}

extension Configuration {
    var journalLimits: JournalLimits {
        var l = JournalLimits()
        l.segmentBytes = journalSegmentBytes
        l.totalBytes = journalMaxBytes
        l.minFreeBytes = Int64(journalMinFreeBytes)
        l.calmTrackInterval = .seconds(journalCalmTrackInterval)
        l.calmFlushAge = .seconds(journalCalmFlushAfter)
        l.attentionFlushAge = .seconds(journalAttentionFlushAfter)
        l.retryInterval = .seconds(journalRetryAfter)
        return l.sanitized
    }
}
