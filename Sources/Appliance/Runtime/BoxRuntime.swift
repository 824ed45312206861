import Drivers
import Posix
import WatchCore

/// `run`'s client of the event loop: the box plus what lives around it (watchdog, shutdown).
final class BoxRuntime: LoopClient {
    let box: Box
    var extraSources: [Pollable] = []
    /// Systems Check rows of parts outside the watch (the network outputs), for the snapshot.
    var extraRows: [() -> [SystemsCheck.Row]] = []
    /// Called on SIGTERM/SIGINT before the loop ends: outputs to a safe state, journal flushed.
    var onShutdown: [(Instant) -> Void] = []
    var onReload: ((Instant) -> Void)?
    /// Signals that stand for the arm switch when it is simulated: SIGUSR1 = ARM, SIGUSR2 = off.
    var simulatedSwitch = false
    var watchdog: (interval: Duration, ping: () -> Void)?
    private var lastPing: Instant?

    init(box: Box) { self.box = box }

    func pollSources() -> [Pollable] { box.sources + extraSources }

    func nextDeadline(now: Instant) -> Instant? {
        var next = box.nextDeadline(now: now)
        for s in extraSources {
            if let d = s.nextDeadline() { next = next.map { min($0, d) } ?? d }
        }
        if let w = watchdog {
            // Pinged from the loop itself, at half the interval at the latest: a stalled loop
            // misses it. Turns that happen anyway ping earlier (`endOfTurn`), so this timer
            // fires only when nothing else woke the loop for half the interval.
            let due = (lastPing ?? now) + Self.latestPing(w.interval)
            next = next.map { min($0, due) } ?? due
        }
        return next
    }

    func serve(_ ready: [(Pollable, [PollRequest])], now: Instant) {
        box.serve(ready, now: now, others: extraSources)
    }

    func signal(_ number: Int32, now: Instant) -> Bool {
        if number == Signal.hangUp {
            onReload?(now)
            return true
        }
        if simulatedSwitch, number == Signal.user1 || number == Signal.user2 {
            box.handle(.armSwitch(on: number == Signal.user1), now: now)
            return true
        }
        for step in onShutdown { step(now) }
        box.annunciator.silence()
        return false
    }

    /// The watchdog is pinged on any turn from a quarter of its interval after the last ping,
    /// and the timer wakes the loop for it at half the interval (sd_watchdog_enabled(3)'s
    /// advice) only when no other turn came: a box holding on GPS readings pings on their turns
    /// and never wakes for the watchdog alone. Pings stay between a quarter and a half of the
    /// interval apart, whatever the loop's rate.
    func endOfTurn(now: Instant) {
        guard let w = watchdog else { return }
        if lastPing == nil || now - lastPing! >= Self.earliestPing(w.interval) {
            w.ping()
            lastPing = now
        }
    }

    static func earliestPing(_ interval: Duration) -> Duration { .nanoseconds(interval.nanoseconds / 4) }
    static func latestPing(_ interval: Duration) -> Duration { .nanoseconds(interval.nanoseconds / 2) }
}
