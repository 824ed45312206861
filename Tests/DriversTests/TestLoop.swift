#if canImport(Glibc)
import Glibc
#endif
import Drivers
import Posix
import WatchCore

/// The event loop in miniature, for tests against real lines: one poll over the sources'
/// descriptors with a timeout to the earliest deadline, then `service`. Runs until `end`.
func runLoop(_ sources: [any Pollable], until end: Instant) -> [(at: Instant, event: Event)] {
    var out: [(Instant, Event)] = []
    while true {
        let now = monotonicNow()
        if now >= end { break }
        let deadline = ([end] + sources.compactMap { $0.nextDeadline() }).min()!
        var fds = sources.flatMap { $0.pollRequests() }.map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
        let wait = max(0, (deadline - now).nanoseconds)
        let timeout = Int32(min((wait + 999_999) / 1_000_000, 60_000))
        _ = poll(&fds, nfds_t(fds.count), timeout)
        let after = monotonicNow()
        for s in sources {
            let mine = s.pollRequests()
            let ready = fds.filter { f in f.revents != 0 && mine.contains { $0.fd == f.fd } }
                .map { PollDescriptor(fd: $0.fd, wanted: $0.events, happened: $0.revents) }
            let due = s.nextDeadline().map { $0 <= after } ?? false
            guard !ready.isEmpty || due else { continue }
            out += s.service(ready: ready, now: after).map { (after, $0) }
        }
    }
    return out
}

/// Waits without a loop to run (between a test's steps), on the same clock.
func pause(_ d: Duration) {
    let end = monotonicNow() + d
    while monotonicNow() < end {
        _ = poll(nil, 0, Int32(max(1, (end - monotonicNow()).nanoseconds / 1_000_000)))
    }
}
