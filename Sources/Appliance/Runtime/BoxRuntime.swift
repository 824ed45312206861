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
            // Pinged from the loop itself at half the interval: a stalled loop misses it.
            let due = (lastPing ?? now) + .nanoseconds(w.interval.nanoseconds / 2)
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

    func endOfTurn(now: Instant) {
        guard let w = watchdog else { return }
        if lastPing == nil || now - lastPing! >= .nanoseconds(w.interval.nanoseconds / 2) {
            w.ping()
            lastPing = now
        }
    }
}
