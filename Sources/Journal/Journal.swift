import WatchCore

/// The crash-safe journal (Docs/journal-format.md). One instance, owned by the event loop.
///
/// The event loop's whole contract:
///
///     // At start, before the first event. Never throws, never refuses.
///     let (journal, recovery) = Journal.open(directory: dir, limits: limits, at: stamp)
///     for event in recovery.events { run(watch.handle(event, at: now)) }   // the journal fault, if any
///     run(watch.restore(recovery.memory, at: now))    // rings at once if it was ringing
///
///     // Each turn, after `let actions = watch.handle(event, at: now)`:
///     //   1. sound `.alarmSound(on: true)` at once (never waits on the journal);
///     //   2. let result = journal.record(actions, pace: TrackPace(of: watch), at: stamp)
///     //   3. confirm `.accepted` decisions (chirp, receipt) only if result.saved is .saved;
///     //      otherwise the receipt says it is not saved;
///     //   4. feed result.events (journal fault raised or cleared) back to the watch.
///
///     // Timer: arm it for journal.nextDeadline too; when it fires, journal.flushIfDue(at: stamp).
///     // Clean shutdown (SIGTERM): journal.shutdown(at: stamp); journal.close().
///
/// Decisions (types 1 to 11) are appended with the batched records before them and synced once
/// per call. Track fixes and verdict changes wait in memory for the next sync; a fault raised or
/// cleared brings that sync forward to now (at most once per attention flush age). A failed
/// write or sync puts the journal in a failed state (the fault pushes) until a retry starts a
/// new segment that holds a snapshot of everything decided meanwhile.
public final class Journal {
    /// What the box got back at start.
    public struct Recovery: Hashable, Sendable {
        /// Feed to `Watch.restore(_:at:)`.
        public var memory: WatchMemory
        /// Everything recovery found and did, oldest segment first.
        public var notes: [RecoveryNote]
        /// The journal fault to raise, if recovery lost something or can't write.
        public var fault: Fault?
        public var segmentsRead: Int
        public var recordsReplayed: Int
        /// How the run before this one ended (the boot record says the same).
        public var previousStop: PreviousStop = .unknown
        /// The farthest the boat was from the mark, as far as the journal kept it (a power cut
        /// loses at most the batch's flush age of track): for `Watch.restore(...farthest:...)`.
        /// nil with no anchor, or from a journal of version 2 or older.
        public var farthest: Meters? = nil
        /// What the swing had learnt about the mark, from the last swing record after the last
        /// mark (a mark that kept the swing writes one with it): for
        /// `Watch.restore(...swing:...)`. nil with no anchor, or from a journal of version 3 or older.
        public var swing: SwingEstimator.Memory? = nil

        /// `fault` as events for `Watch.handle`.
        public var events: [Event] { fault.map { [.faultRaised($0)] } ?? [] }
    }

    public enum Saved: Hashable, Sendable {
        /// Nothing needed writing.
        case nothing
        /// Appended and fdatasync'd: confirm.
        case saved
        /// Not durable: never confirm as saved.
        case notSaved(JournalFailure)
    }

    public struct WriteResult: Hashable, Sendable {
        public var saved: Saved
        /// `.faultRaised` when the journal just failed, `.faultCleared(.journal)` when it recovered.
        public var events: [Event]

        static let nothing = WriteResult(saved: .nothing, events: [])
    }

    /// What the journal cost the card, for the benchmark and Systems Check.
    public struct Stats: Hashable, Sendable {
        public var bytesWritten = 0
        public var dataSyncs = 0
        public var directorySyncs = 0
        public var segmentsStarted = 0
        public var segmentsDeleted = 0
        public var failures = 0
        public var tracksKept = 0
        public var tracksDropped = 0
    }

    struct Segment: Hashable {
        var sequence: UInt64
        var size: Int
        /// Its first sync succeeded: its snapshot is on the card.
        var durable: Bool
        /// No whole record: deleted at the next compaction.
        var empty: Bool
    }

    public let directory: String
    public let limits: JournalLimits
    let fs: any JournalFileSystem

    /// The restorable state including everything handed to the journal, saved or not.
    public private(set) var memory: WatchMemory
    /// The largest distance from the mark among the track fixes handed to the journal since the
    /// last mark or release (saved or not): a fix that raises it is never thinned out, so it
    /// equals the watch's own `farthest`. Each new segment carries it (a farthest record).
    public private(set) var farthest: Meters?
    /// The latest swing memory handed to the journal since the last mark or release (saved or
    /// not), and when: each new segment carries it, aged to the segment's start (a swing record).
    public private(set) var swing: (memory: SwingEstimator.Memory, at: Instant)?
    /// Set while the journal can't save.
    public private(set) var failure: JournalFailure?
    public internal(set) var stats = Stats()

    var active: (segment: Segment, file: any JournalFile)?
    var older: [Segment] = []
    var nextSequence: UInt64
    var pending: [[UInt8]] = []
    var pendingBytes = 0
    var pendingSince: Instant?
    var pendingAttention = false
    var lastTrack: Instant?
    var retryAt: Instant?
    /// A fault record waits in the batch: it is due then (at once, or an attention flush age
    /// after the last sync a fault brought about).
    var promptDue: Instant?
    var lastPromptSync: Instant?

    init(directory: String, limits: JournalLimits, fileSystem: any JournalFileSystem, memory: WatchMemory,
         older: [Segment], nextSequence: UInt64, farthest: Meters? = nil,
         swing: (memory: SwingEstimator.Memory, at: Instant)? = nil) {
        self.farthest = memory.anchor == nil ? nil : farthest
        self.swing = memory.anchor == nil ? nil : swing
        self.directory = directory
        self.limits = limits.sanitized
        self.fs = fileSystem
        self.memory = memory
        self.older = older
        self.nextSequence = nextSequence
    }

    deinit { active?.file.close() }

    // MARK: - Writing

    /// Everything one turn's actions leave in the journal: decisions and alarm moves are synced
    /// now (one sync, with the batch before them); the rest is batched or, for the track,
    /// decimated by `pace`.
    public func record(_ actions: [Action], pace: TrackPace, at stamp: Stamp) -> WriteResult {
        var durable: [JournalRecord] = []
        for action in actions {
            guard let record = JournalRecord.from(action, at: stamp.monotonic) else { continue }
            switch record {
            case .trackFix(let fix):
                // A new farthest is always kept: the farthest is restored from the track.
                if let d = fix.distance, memory.anchor != nil, d > farthest ?? Meters(-1) {
                    farthest = d
                    track(fix, pace: .attention, batchAs: pace, at: stamp)
                } else {
                    track(fix, pace: pace, at: stamp)
                }
            case .swing(let m):
                swing = (m, stamp.monotonic)
                // After a mark in the same turn (one that kept the swing), with it: in the file
                // after the mark, as recovery reads it.
                if durable.isEmpty { batch(record, pace: pace, at: stamp) } else { durable.append(record) }
            default:
                // A new mark, or none, starts the farthest and the swing again.
                if record.type == .mark || record.type == .release {
                    farthest = nil
                    swing = nil
                }
                if record.type.isDurableAtOnce { durable.append(record) } else { batch(record, pace: pace, at: stamp) }
            }
        }
        return durable.isEmpty ? flushIfDue(at: stamp) : commit(durable, at: stamp)
    }

    /// Appends `records` (after any batched ones) and syncs once. `.saved` means durable.
    public func commit(_ records: [JournalRecord], at stamp: Stamp) -> WriteResult {
        let base = memory
        var bytes: [UInt8] = []
        for record in records {
            memory.apply(record)
            bytes += Self.frame(record, at: stamp)
        }
        return persist(bytes, base: base, at: stamp)
    }

    /// Syncs the batch now (and retries a failed journal). For a clean shutdown, and for tests.
    public func flush(at stamp: Stamp) -> WriteResult {
        guard !pending.isEmpty || failure != nil else { return .nothing }
        return persist([], base: memory, at: stamp)
    }

    /// A clean stop: the batch and a shutdown record, synced, so the next start knows this run
    /// ended on purpose. Then `close`.
    public func shutdown(at stamp: Stamp) -> WriteResult {
        commit([.shutdown], at: stamp)
    }

    public func close() {
        active?.file.close()
        if let a = active { older.append(a.segment) }
        active = nil
    }

    // MARK: - Persisting (framing in RecordFrame.swift, batching and decimation in
    // Journal+Batching.swift, segments and rotation in Journal+Rotation.swift)

    /// Writes the batch and `bytes`, syncs; starts a new segment (with `base` as its snapshot)
    /// when there is none usable or this would overfill it. On ENOSPC, frees space once and retries.
    func persist(_ bytes: [UInt8], base: WatchMemory, at stamp: Stamp) -> WriteResult {
        var freedSpace = false
        while true {
            do {
                try writeOnce(bytes, base: base, at: stamp)
                pending.removeAll()
                pendingBytes = 0
                pendingSince = nil
                pendingAttention = false
                if promptDue != nil { lastPromptSync = stamp.monotonic }
                promptDue = nil
                return succeeded()
            } catch {
                let error = error as? FileSystemError ?? FileSystemError(.append, directory, .io)
                poisonActive()
                if error.errno == .noSpace || error.errno == .quotaExceeded, !freedSpace {
                    freedSpace = true
                    freeSpaceForRetry()
                    continue
                }
                return failed(JournalFailure(error), at: stamp)
            }
        }
    }

    private func writeOnce(_ bytes: [UInt8], base: WatchMemory, at stamp: Stamp) throws {
        let batch = pending.flatMap { $0 }
        var started = false
        if active == nil || active!.segment.size + batch.count + bytes.count > limits.segmentBytes {
            try startSegment(snapshot: base, at: stamp)
            started = true
        }
        let all = batch + bytes
        if !all.isEmpty {
            try active!.file.append(all)
            active!.segment.size += all.count
            stats.bytesWritten += all.count
        }
        try active!.file.syncData()
        stats.dataSyncs += 1
        active!.segment.durable = true
        if started {
            try fs.syncDirectory(directory)
            stats.directorySyncs += 1
            compact()
        }
    }

    private func succeeded() -> WriteResult {
        let wasFailed = failure != nil
        failure = nil
        retryAt = nil
        return WriteResult(saved: .saved, events: wasFailed ? [.faultCleared(.journal)] : [])
    }

    private func failed(_ f: JournalFailure, at stamp: Stamp) -> WriteResult {
        let announce = failure?.kind != f.kind
        failure = f
        retryAt = stamp.monotonic + limits.retryInterval
        stats.failures += 1
        return WriteResult(saved: .notSaved(f), events: announce ? [.faultRaised(f.fault)] : [])
    }
}
