import Drivers
import Posix
import WatchCore

/// A small event loop for tests: polls one `Pollable` the way the appliance's loop does (its
/// descriptors, its deadline, a bounded wait) on the real monotonic clock, and records every
/// event with the instant it was produced. Tests wait for behaviour with `run(until:)`, never by
/// sleeping.
public final class PollDriver {
    public let source: Pollable
    public private(set) var events: [(at: Instant, event: Event)] = []

    public init(_ source: Pollable) { self.source = source }

    public static func now() -> Instant { MonotonicClock.now() }

    /// Runs until `done` holds for the events recorded so far, or `timeout` passes. Returns
    /// whether `done` held.
    @discardableResult
    public func run(timeout: Duration, until done: ([(at: Instant, event: Event)]) -> Bool) -> Bool {
        let end = Self.now() + timeout
        while !done(events) {
            let now = Self.now()
            if now >= end { return false }
            let requests = source.pollRequests()
            var fds = requests
            var wait = end - now
            if let deadline = source.nextDeadline() { wait = min(wait, max(deadline - now, .zero)) }
            let ms = Int32(min(max((wait.seconds * 1000).rounded(.up), 0), 1000))
            do { try Poll.wait(&fds, timeoutMilliseconds: ms) } catch { return false }
            let after = Self.now()
            let ready = fds.filter { $0.happened != 0 }
            let due = source.nextDeadline().map { $0 <= after } ?? false
            if !ready.isEmpty || due {
                for e in source.service(ready: ready, now: after) { events.append((after, e)) }
            }
        }
        return true
    }

    /// Runs for `duration` whatever happens.
    public func run(for duration: Duration) {
        run(timeout: duration) { _ in false }
    }

    public var readings: [GPSReading] {
        events.compactMap { if case .reading(let r) = $0.event { r } else { nil } }
    }

    public func raised(_ kind: FaultKind) -> [Fault] {
        events.compactMap { if case .faultRaised(let f) = $0.event, f.kind == kind { f } else { nil } }
    }

    public func cleared(_ kind: FaultKind) -> Int {
        events.filter { if case .faultCleared(kind) = $0.event { true } else { false } }.count
    }
}
