import Posix
import WatchCore

/// The journal off the loop's thread: one writer thread owns the `Journal` and does every
/// append, `fdatasync` and directory `fsync`; the loop hands it one turn's actions and learns of
/// the outcome through `completionFD`, a pipe it polls. So the alarm's cadence, the siren and
/// the watchdog go on while a tired card takes seconds to sync, and a decision is still
/// confirmed only when its completion says it is durable.
///
/// Who wakes whom, so a holding box does not pay a thread switch per fix:
/// - a turn with a decision or an alarm move (records that are synced at once) wakes the
///   writer, and its completion wakes the loop;
/// - a fault raised or cleared wakes the writer too, which syncs it with the batch at once (or,
///   a fault soon after another, when the journal's prompt flush allows) so the recap shows it;
///   its completion tells the loop that deadline;
/// - track fixes and verdict changes only queue; the writer takes them with the next wake-up,
///   at the latest when `nextDeadline` (the journal's flush age, counted from the first one
///   queued) comes and the loop calls `flushIfDue`, or when `wakeAfterQueued` have queued.
///
/// `threaded: false` runs every request inline (the demo's accelerated clock, tests): the same
/// rules, completions ready at once.
public final class JournalWriter: @unchecked Sendable {
    public struct Ticket: Hashable, Sendable {
        public let number: UInt64
    }

    /// What the writer did with one request the loop waits on, or with a failure it must hear.
    public struct Completion: Hashable, Sendable {
        /// The `record` call this answers; nil for a flush.
        public var ticket: Ticket?
        public var saved: Journal.Saved
        /// The journal fault raised or cleared.
        public var events: [Event]
    }

    private enum Request {
        /// The flag: a prompt record (a fault) is among them, so the journal's deadline is news.
        case record([Action], TrackPace, Stamp, Ticket?, prompt: Bool)
        case flushIfDue(Stamp)
        case flush(Stamp)
        case stop
    }

    /// Queued quiet requests after which the writer is woken anyway (bounds the queue's memory).
    public var wakeAfterQueued = 64

    private let journal: Journal
    private let threaded: Bool
    private let limits: JournalLimits
    private let lock = Lock()
    /// Copies the writer publishes after each request, read by the loop under the lock.
    private var publishedStats: Journal.Stats
    private var publishedDeadline: Instant?
    private var queue: [Request] = []
    private var completions: [Completion] = []
    private var thread: WorkerThread?
    private var wake: WakePipe?
    private var nextTicket: UInt64 = 0

    // The loop's side only.
    private var quietSince: Instant?
    private var quietAttention = false
    private var quietQueued = 0
    private var journalDeadline: Instant?
    private var stopped = false

    // What the loop last heard (for the Systems Check and tests).
    public private(set) var completed = 0
    /// Times the loop's side found the lock held by the writer (and waited for it).
    public private(set) var loopFoundTheLockTaken = 0

    public init(journal: Journal, threaded: Bool = true) {
        self.journal = journal
        self.threaded = threaded
        self.limits = journal.limits
        journalDeadline = journal.nextDeadline
        publishedStats = journal.stats
        publishedDeadline = journal.nextDeadline
        guard threaded, let pipe = try? WakePipe() else { return }
        wake = pipe
        // Without a thread (none to give) every request runs inline, as when not threaded.
        thread = try? WorkerThread { self.work() }
    }

    /// The descriptor the loop polls for completions (nil when inline).
    public var completionFD: Int32? { threaded && thread != nil ? wake?.readEnd.rawValue : nil }

    /// The journal's stats, read on the loop's thread (approximate while the writer works).
    public var stats: Journal.Stats { locked { publishedStats } }

    // MARK: - The loop's side

    /// Hands one turn's actions to the writer. Returns a ticket when any of them must be durable
    /// before it is confirmed (its completion says whether it is); nil when they only queue.
    public func record(_ actions: [Action], pace: TrackPace, at stamp: Stamp) -> Ticket? {
        // After `close` the journal is shut: nothing more is written (and nothing is confirmed).
        guard !stopped else { return nil }
        var urgent = false
        var prompt = false
        var any = false
        for action in actions {
            guard let record = JournalRecord.from(action, at: stamp.monotonic) else { continue }
            any = true
            if record.type.isDurableAtOnce { urgent = true }
            if record.type.flushesPromptly { prompt = true }
        }
        guard any else { return nil }
        if urgent {
            nextTicket += 1
            let ticket = Ticket(number: nextTicket)
            quietSince = nil
            quietAttention = false
            quietQueued = 0
            enqueue(.record(actions, pace, stamp, ticket, prompt: prompt), wake: true)
            return ticket
        }
        if quietSince == nil { quietSince = stamp.monotonic }
        if pace == .attention { quietAttention = true }
        quietQueued += 1
        let wake = prompt || quietQueued >= wakeAfterQueued
        if wake { quietQueued = 0 }
        enqueue(.record(actions, pace, stamp, nil, prompt: prompt), wake: wake)
        return nil
    }

    /// When the loop must call `flushIfDue`: the flush age of what queued since the writer last
    /// flushed, or the journal's own deadline (a retry while failed) as its last completion said.
    public var nextDeadline: Instant? {
        let quiet = quietSince.map { $0 + (quietAttention ? limits.attentionFlushAge : limits.calmFlushAge) }
        switch (quiet, journalDeadline) {
        case let (q?, j?): return min(q, j)
        case let (q?, nil): return q
        case let (nil, j): return j
        }
    }

    public func flushIfDue(at stamp: Stamp) {
        guard !stopped, let due = nextDeadline, stamp.monotonic >= due else { return }
        quietSince = nil
        quietAttention = false
        quietQueued = 0
        journalDeadline = nil
        enqueue(.flushIfDue(stamp), wake: true)
    }

    /// Completions since last asked, in the order the requests were made. Drains the pipe.
    public func takeCompletions() -> [Completion] {
        if completionFD != nil, let wake {
            // The writer appends a completion, then rings: an empty pipe means nothing new (a
            // completion whose byte is still to come wakes the loop when it comes), and the
            // lock and its copy are skipped on most calls.
            if !wake.drain() { return [] }
        }
        let (done, deadline) = loopLocked { () -> ([Completion], Instant?) in
            defer { completions.removeAll(keepingCapacity: true) }
            return (completions, publishedDeadline)
        }
        if !done.isEmpty {
            completed += done.count
            journalDeadline = deadline
        }
        return done
    }

    /// On a clean stop: what is queued and batched goes to disk with the shutdown record, the
    /// files close, the thread ends. Waits for the writer (the one place the loop's thread does: it is stopping).
    public func close(at stamp: Stamp) {
        guard !stopped else { return }
        stopped = true
        enqueue(.flush(stamp), wake: false)
        enqueue(.stop, wake: true)
        thread?.join()
        thread = nil
    }

    // MARK: - The writer's side

    private func enqueue(_ request: Request, wake: Bool) {
        guard threaded, thread != nil else {
            run(request)
            return
        }
        loopLocked {
            queue.append(request)
            if wake { lock.signal() }
        }
    }

    private func work() {
        var running = true
        while running {
            let taken = lock.locked(when: { !queue.isEmpty }) { () -> [Request] in
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            }
            var posted = false
            for request in taken {
                if case .stop = request { running = false; continue }
                if run(request) { posted = true }
            }
            if posted { wake?.ring() }
        }
    }

    /// Carries out one request on the journal; true when it left a completion to read.
    @discardableResult
    private func run(_ request: Request) -> Bool {
        // Only this thread calls into the journal (inline: only the loop's), unlocked, since its
        // I/O is the slow part; the lock covers the hand-over of its results.
        let completion: Completion?
        switch request {
        case .record(let actions, let pace, let stamp, let ticket, let prompt):
            let r = journal.record(actions, pace: pace, at: stamp)
            if ticket != nil || prompt || !r.events.isEmpty || isFailure(r.saved) {
                completion = Completion(ticket: ticket, saved: r.saved, events: r.events)
            } else {
                completion = nil
            }
        case .flushIfDue(let stamp):
            let r = journal.flushIfDue(at: stamp)
            completion = Completion(ticket: nil, saved: r.saved, events: r.events)
        case .flush(let stamp):
            _ = journal.shutdown(at: stamp)
            journal.close()
            completion = nil
        case .stop:
            completion = nil
        }
        locked {
            publishedStats = journal.stats
            publishedDeadline = journal.nextDeadline
            if let completion { completions.append(completion) }
        }
        return completion != nil
    }

    private func isFailure(_ s: Journal.Saved) -> Bool {
        if case .notSaved = s { return true }
        return false
    }

    private func locked<T>(_ body: () -> T) -> T { lock.locked(body) }

    private func loopLocked<T>(_ body: () -> T) -> T {
        if let r = lock.lockedIfFree(body) { return r }
        loopFoundTheLockTaken += 1
        return lock.locked(body)
    }
}
