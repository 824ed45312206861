#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Drivers
import WatchCore

/// Something the loop runs: it offers descriptors and deadlines, and is called when they fire.
protocol LoopClient: AnyObject {
    /// Every descriptor to poll this turn, each tagged with the `Pollable` that owns it.
    func pollSources() -> [Pollable]
    /// The earliest instant anything needs the loop to wake without I/O.
    func nextDeadline(now: Instant) -> Instant?
    /// One turn's work: ready descriptors by source (empty when woken by the timer).
    func serve(_ ready: [(Pollable, [PollRequest])], now: Instant)
    /// A signal arrived. Return false to stop the loop.
    func signal(_ number: Int32, now: Instant) -> Bool
    /// Called once per turn after serving, e.g. for the watchdog ping.
    func endOfTurn(now: Instant)
}

/// One thread, one poll(2): a signalfd for SIGTERM/SIGINT/SIGHUP, one timerfd on
/// CLOCK_MONOTONIC armed one-shot for the earliest deadline, and every driver's descriptors.
/// Nothing inside blocks: drivers read bounded batches from descriptors poll said were ready.
final class EventLoop {
    private let timerFD: Int32
    private let signalFD: Int32
    private(set) var wakeups = 0

    /// `extraSignals` join SIGTERM, SIGINT and SIGHUP on the signalfd (the simulated switch).
    init(extraSignals: [Int32] = []) throws {
        timerFD = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard timerFD >= 0 else { throw PosixError(call: "timerfd_create", code: errno) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in [SIGTERM, SIGINT, SIGHUP] + extraSignals { sigaddset(&mask, s) }
        // Blocked for the whole process, so they arrive only through the signalfd.
        sigprocmask(SIG_BLOCK, &mask, nil)
        // libgps and the control socket write to peers that may be gone: EPIPE, not death.
        signal(SIGPIPE, SIG_IGN)
        signalFD = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard signalFD >= 0 else { throw PosixError(call: "signalfd", code: errno) }
    }

    deinit {
        close(timerFD)
        close(signalFD)
    }

    /// Runs until a client's `signal` returns false.
    func run(_ client: LoopClient) {
        var armedFor: Instant?
        while true {
            let now = SystemClock.now()
            let deadline = client.nextDeadline(now: now)
            if deadline != armedFor {
                arm(deadline)
                armedFor = deadline
            }
            let sources = client.pollSources()
            var fds = [pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0)]
            var owners: [Int] = [-1, -1]
            for (i, source) in sources.enumerated() {
                for r in source.pollRequests() {
                    fds.append(pollfd(fd: r.fd, events: r.events, revents: 0))
                    owners.append(i)
                }
            }
            let n = poll(&fds, nfds_t(fds.count), -1)
            if n < 0 {
                if errno == EINTR { continue }
                Console.error("anchor-alert: poll: \(String(cString: strerror(errno)))")
                continue
            }
            wakeups += 1
            let woke = SystemClock.now()
            if fds[0].revents != 0 {
                var info = signalfd_siginfo()
                while read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                    if !client.signal(Int32(info.ssi_signo), now: woke) { return }
                }
            }
            if fds[1].revents != 0 {
                var expirations: UInt64 = 0
                _ = read(timerFD, &expirations, 8)
                armedFor = nil
            }
            // By source, in the sources' order (their descriptors were appended in that order).
            var ready: [(Pollable, [PollRequest])] = []
            var readyOwner = -1
            for k in 2..<fds.count where fds[k].revents != 0 {
                let request = PollRequest(fd: fds[k].fd, events: fds[k].revents)
                if owners[k] == readyOwner {
                    ready[ready.count - 1].1.append(request)
                } else {
                    ready.append((sources[owners[k]], [request]))
                    readyOwner = owners[k]
                }
            }
            client.serve(ready, now: woke)
            client.endOfTurn(now: woke)
        }
    }

    /// Arms the timer one-shot at `deadline` (absolute, monotonic), or disarms it.
    private func arm(_ deadline: Instant?) {
        var spec = itimerspec()
        if let d = deadline {
            // An absolute time of zero would disarm; a deadline already past fires at once.
            let ns = max(d.nanoseconds, 1)
            spec.it_value = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        }
        timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }
}
