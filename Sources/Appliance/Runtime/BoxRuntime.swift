import Drivers
import Posix
import WatchCore

/// `run`'s client of the event loop: the box, and what the signals ask of it (a reload, the
/// simulated switch, the stop).
final class BoxRuntime: LoopClient {
    let box: Box
    /// SIGHUP: the configuration read again; its problems are said and raised, as at a start.
    private let reload: (() -> LoadedConfiguration)?
    /// Signals that stand for the arm switch when it is simulated: SIGUSR1 = ARM, SIGUSR2 = off.
    private let simulatedSwitch: Bool

    init(box: Box, reload: (() -> LoadedConfiguration)? = nil, simulatedSwitch: Bool = false) {
        self.box = box
        self.reload = reload
        self.simulatedSwitch = simulatedSwitch
    }

    func pollSources() -> [Pollable] { box.sources }

    func nextDeadline(now: Instant) -> Instant? { box.nextDeadline(now: now) }

    func serve(_ ready: [(Pollable, [PollDescriptor])], now: Instant) { box.serve(ready, now: now) }

    func signal(_ number: Int32, now: Instant) -> Bool {
        if number == Signal.hangUp {
            if let reload { Self.reloaded(reload(), box: box, now: now) }
            return true
        }
        if simulatedSwitch, number == Signal.user1 || number == Signal.user2 {
            box.handle(.armSwitch(on: number == Signal.user1), now: now)
            return true
        }
        box.stop(now: now)
        return false
    }

    /// Changes take effect at the next start; a reload says whether the file reads cleanly, and
    /// a bad one raises the configuration fault, as a start does.
    static func reloaded(_ again: LoadedConfiguration, box: Box, now: Instant) {
        if again.problems.isEmpty {
            Console.out("Configuration: read cleanly; changes take effect at the next start")
        }
        for p in again.problems { Console.error(p) }
        if let fault = Configuration.fault(for: again.problems) { box.handle(.faultRaised(fault), now: now) }
    }
}

/// systemd's watchdog (WatchdogSec=), pinged from the loop itself: on any turn from a quarter
/// of its interval after the last ping (`dueFrom`), and the timer wakes the loop for it at half
/// the interval (sd_watchdog_enabled(3)'s advice, `nextDeadline`) only when no other turn came.
/// A box holding on GPS readings pings on their turns and never wakes for the watchdog alone;
/// pings stay a quarter to a half of the interval apart, whatever the loop's rate, and a
/// stalled loop misses them.
final class Watchdog: Part, Pollable {
    let interval: Duration
    private let start: Instant
    private let ping: () -> Void
    private var lastPing: Instant?

    init(interval: Duration, start: Instant, ping: @escaping () -> Void) {
        self.interval = interval
        self.start = start
        self.ping = ping
    }

    var polled: Pollable? { self }
    func pollRequests() -> [PollDescriptor] { [] }
    func dueFrom() -> Instant? { lastPing.map { $0 + Self.earliestPing(interval) } ?? start }
    func nextDeadline() -> Instant? { (lastPing ?? start) + Self.latestPing(interval) }

    func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        if let lastPing, now - lastPing < Self.earliestPing(interval) { return [] }
        ping()
        lastPing = now
        return []
    }

    static func earliestPing(_ interval: Duration) -> Duration { .nanoseconds(interval.nanoseconds / 4) }
    static func latestPing(_ interval: Duration) -> Duration { .nanoseconds(interval.nanoseconds / 2) }
}
