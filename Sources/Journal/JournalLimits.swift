/// The journal's configurable limits (Docs/journal-format.md, "Limits and what they cost").
/// Defaults live in `JournalConstants`.
public struct JournalLimits: Hashable, Sendable {
    /// A commit that would take the newest segment past this starts a new one (with a snapshot).
    public var segmentBytes = JournalConstants.defaultSegmentBytes
    /// Older segments are deleted, oldest first, while all together exceed this.
    public var totalBytes = JournalConstants.defaultTotalBytes
    /// ...or while the file system has less than this free.
    public var minFreeBytes = JournalConstants.defaultMinFreeBytes
    /// One track fix per this while calm (holding, can't judge, no anchor, alarm off or armed).
    public var calmTrackInterval = JournalConstants.defaultCalmTrackInterval
    /// Batched records wait at most this long for a sync while calm...
    public var calmFlushAge = JournalConstants.defaultCalmFlushAge
    /// ...and this long while checking, dragging, ringing or snoozed.
    public var attentionFlushAge = JournalConstants.defaultAttentionFlushAge
    /// A batch this large is synced at once.
    public var batchBytes = JournalConstants.defaultBatchBytes
    /// A failed journal retries (a new segment) at most this often without a new decision.
    public var retryInterval = JournalConstants.defaultRetryInterval
    /// Recovery reads at most this much of one segment (not a configuration key: tests lower it).
    public var maxSegmentRead = JournalConstants.maxSegmentRead

    public init() {}

    /// Limits that can't work are raised to the smallest that can, so a bad configuration file
    /// never stops the journal.
    public var sanitized: JournalLimits {
        var l = self
        // A segment is a soft limit (a record larger than what is left still goes in a fresh
        // segment), so a small one only costs more rotations: tests use that.
        l.segmentBytes = max(l.segmentBytes, 512)
        l.totalBytes = max(l.totalBytes, 2 * l.segmentBytes)
        l.minFreeBytes = max(0, l.minFreeBytes)
        l.batchBytes = min(max(l.batchBytes, 64), l.segmentBytes / 4)
        return l
    }
}
