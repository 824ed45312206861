import CLinux
import Glibc
import WatchCore

/// poll(2)'s event bits, for requests and for what came back.
public enum PollEvents {
    public static let readable = Int16(POLLIN)
    public static let writable = Int16(POLLOUT)
    public static let error = Int16(POLLERR)
    public static let hangUp = Int16(POLLHUP)
    /// Readable, hung up or failed: any of them means "read now and see".
    public static let readableOrClosed = Int16(POLLIN | POLLHUP | POLLERR)
}

/// One descriptor for poll(2), the one shape a poll entry has on the box: the events `wanted`
/// (what a source asks the loop to wait for) and those that `happened` (what `Poll.wait` found,
/// and what a source's `service(ready:)` reads).
public struct PollDescriptor: Hashable, Sendable {
    public var fd: Int32
    public var wanted: Int16
    public var happened: Int16

    public init(fd: Int32, wanted: Int16, happened: Int16 = 0) {
        self.fd = fd
        self.wanted = wanted
        self.happened = happened
    }

    /// Whether `happened` holds any of `events`.
    public func happened(_ events: Int16) -> Bool { happened & events != 0 }
}

public enum Poll {
    /// Waits until one of `descriptors` is ready or `timeoutMilliseconds` pass (-1: no limit);
    /// sets each one's `happened` and gives the number ready (0 on timeout). EINTR returns 0 with
    /// nothing ready (the caller's loop looks at its clock and signals again).
    @discardableResult
    public static func wait(_ descriptors: inout [PollDescriptor], timeoutMilliseconds: Int32) throws -> Int {
        var fds = descriptors.map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
        guard let n = try Syscall.interruptible("poll", { Glibc.poll(&fds, nfds_t(fds.count), timeoutMilliseconds) }) else {
            for i in descriptors.indices { descriptors[i].happened = 0 }
            return 0
        }
        for i in fds.indices { descriptors[i].happened = fds[i].revents }
        return Int(n)
    }

    /// Waits on `wanted` (at most `timeoutMilliseconds`) and gives those whose events happened,
    /// in their order: what a source's `service(ready:)` takes.
    public static func ready(_ wanted: [PollDescriptor], timeoutMilliseconds: Int32) -> [PollDescriptor] {
        var fds = wanted
        guard (try? wait(&fds, timeoutMilliseconds: timeoutMilliseconds)) ?? 0 > 0 else { return [] }
        return fds.filter { $0.happened != 0 }
    }

    /// One descriptor: what happened, 0 on timeout or EINTR.
    public static func wait(for fd: Int32, events: Int16, timeoutMilliseconds: Int32) -> Int16 {
        var one = [PollDescriptor(fd: fd, wanted: events)]
        guard (try? wait(&one, timeoutMilliseconds: timeoutMilliseconds)) ?? 0 > 0 else { return 0 }
        return one[0].happened
    }
}

/// A timerfd on CLOCK_MONOTONIC, armed one-shot for an absolute instant: the loop's only timer.
public final class MonotonicTimer {
    public let descriptor: FileDescriptor

    public init() throws {
        descriptor = FileDescriptor(adopting: try Syscall.check("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        })
    }

    /// Arms the timer one-shot at `deadline` (absolute, monotonic), or disarms it (nil).
    public func arm(_ deadline: Instant?) {
        var spec = itimerspec()
        if let d = deadline {
            // An absolute time of zero would disarm; a deadline already past fires at once.
            let ns = max(d.nanoseconds, 1)
            spec.it_value = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        }
        timerfd_settime(descriptor.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Reads the expiry count so the descriptor stops being readable.
    public func acknowledge() {
        var expirations: UInt64 = 0
        _ = try? descriptor.read(into: &expirations)
    }
}

/// The signals the box handles, by name.
public enum Signal {
    public static let terminate = SIGTERM
    public static let interrupt = SIGINT
    public static let hangUp = SIGHUP
    public static let user1 = SIGUSR1
    public static let user2 = SIGUSR2

    /// Writes to a peer that went away (libgps, the control socket) give EPIPE, not death.
    public static func ignoreBrokenPipe() { _ = Glibc.signal(SIGPIPE, SIG_IGN) }

    /// Sends `signal` to a process; false if it could not.
    @discardableResult
    public static func send(_ signal: Int32, to pid: Int32) -> Bool { kill(pid, signal) == 0 }
}

/// A signalfd: the given signals blocked for the whole process, so they arrive only here, as
/// readable data the loop polls for, never as handlers.
public final class SignalQueue {
    public let descriptor: FileDescriptor

    public init(_ signals: [Int32]) throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        sigprocmask(SIG_BLOCK, &mask, nil)
        descriptor = FileDescriptor(adopting: try Syscall.check("signalfd") {
            signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        })
    }

    /// The next signal waiting, or nil.
    public func next() -> Int32? {
        var info = signalfd_siginfo()
        let got = try? withUnsafeMutableBytes(of: &info) { try descriptor.readNow(into: $0) }
        guard let n = got ?? nil, n == MemoryLayout<signalfd_siginfo>.size else { return nil }
        return Int32(info.ssi_signo)
    }
}
