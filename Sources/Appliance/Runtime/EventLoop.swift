import Drivers
import Posix
import WatchCore

/// Something the loop runs: it offers descriptors and deadlines, and is called when they fire.
protocol LoopClient: AnyObject {
    /// Every descriptor to poll this turn, each tagged with the `Pollable` that owns it.
    func pollSources() -> [Pollable]
    /// The earliest instant anything needs the loop to wake without I/O.
    func nextDeadline(now: Instant) -> Instant?
    /// One turn's work: ready descriptors by source (empty when woken by the timer).
    func serve(_ ready: [(Pollable, [PollDescriptor])], now: Instant)
    /// A signal arrived. Return false to stop the loop.
    func signal(_ number: Int32, now: Instant) -> Bool
}

/// One thread, one poll(2): a signalfd for SIGTERM/SIGINT/SIGHUP, one timerfd on
/// CLOCK_MONOTONIC armed one-shot for the earliest deadline, and every driver's descriptors.
/// Nothing inside blocks: drivers read bounded batches from descriptors poll said were ready.
/// The loop reads both clocks once per wake-up (`clock.tick()`, and once before its first
/// poll) and that reading is the turn's time: its monotonic half is the `now` passed to
/// everything, the wall half what the parts built with the same `LoopClock` stamp with. The next
/// deadline is asked at the same `now`, so a turn reads the clocks once.
final class EventLoop {
    private let timer: MonotonicTimer
    private let signals: SignalQueue
    let clock: LoopClock
    private(set) var wakeups = 0

    /// `extraSignals` join SIGTERM, SIGINT and SIGHUP on the signalfd (the simulated switch).
    /// `clock` is the one `Wiring` gave the parts.
    init(extraSignals: [Int32] = [], clock: LoopClock = LoopClock()) throws {
        self.clock = clock
        timer = try MonotonicTimer()
        // Blocked for the whole process, so they arrive only through the signalfd.
        signals = try SignalQueue([Signal.terminate, Signal.interrupt, Signal.hangUp] + extraSignals)
        // libgps and the control socket write to peers that may be gone: EPIPE, not death.
        Signal.ignoreBrokenPipe()
    }

    /// Runs until a client's `signal` returns false.
    func run(_ client: LoopClient) {
        var armedFor: Instant?
        var now = clock.tick().monotonic
        while true {
            let deadline = client.nextDeadline(now: now)
            if deadline != armedFor {
                timer.arm(deadline)
                armedFor = deadline
            }
            let sources = client.pollSources()
            var fds = [PollDescriptor(fd: signals.descriptor.rawValue, wanted: PollEvents.readable),
                       PollDescriptor(fd: timer.descriptor.rawValue, wanted: PollEvents.readable)]
            var owners: [Int] = [-1, -1]
            for (i, source) in sources.enumerated() {
                for r in source.pollRequests() {
                    fds.append(r)
                    owners.append(i)
                }
            }
            do {
                // EINTR comes back as nothing ready: the turn starts again.
                guard try Poll.wait(&fds, timeoutMilliseconds: -1) > 0 else { continue }
            } catch {
                Console.error("anchor-alert: \(error)")
                continue
            }
            wakeups += 1
            now = clock.tick().monotonic
            if fds[0].happened != 0 {
                while let signal = signals.next() {
                    if !client.signal(signal, now: now) { return }
                }
            }
            if fds[1].happened != 0 {
                timer.acknowledge()
                armedFor = nil
            }
            // By source, in the sources' order (their descriptors were appended in that order).
            var ready: [(Pollable, [PollDescriptor])] = []
            var readyOwner = -1
            for k in 2..<fds.count where fds[k].happened != 0 {
                let request = fds[k]
                if owners[k] == readyOwner {
                    ready[ready.count - 1].1.append(request)
                } else {
                    ready.append((sources[owners[k]], [request]))
                    readyOwner = owners[k]
                }
            }
            client.serve(ready, now: now)
        }
    }
}
