import Posix

/// Tells systemd how the box is doing, by sd_notify(3)'s protocol (one datagram of
/// newline-separated assignments to the socket in `NOTIFY_SOCKET`, spoken here without
/// libsystemd, which with its libgcrypt, liblzma, libzstd, liblz4 and libcap was about a
/// megabyte of the box's resident pages for two calls): ready once the loop runs, a status line
/// for `systemctl status`, a watchdog ping, and stopping.
///
/// The unit is `Type=notify` with `WatchdogSec=`: systemd restarts the service when the pings
/// stop, so the ping must come from the event loop itself (its own timer, at `pingInterval`),
/// never from a helper thread that would keep pinging while the loop is stuck.
///
/// Outside systemd (a shell, a test, `replay`) `NOTIFY_SOCKET` is unset: every call does
/// nothing and says `.notSupervised`, and `watchdogInterval` is nil.
public struct Systemd: Sendable {
    /// What became of one notification.
    public enum Delivery: Equatable, Sendable {
        case sent
        /// No service manager is listening (`NOTIFY_SOCKET` unset): nothing to do.
        case notSupervised
    }

    public struct NotifyError: Error, Equatable, CustomStringConvertible {
        public var errno: Errno
        public var message: String
        public var description: String { "systemd notification failed: \(message) (errno \(errno.rawValue))" }
    }

    /// The span systemd waits for a ping before it kills and restarts the service, when this
    /// process is the one it watches (`WatchdogSec=` in the unit); nil when nobody watches.
    public let watchdogInterval: Duration?

    /// How often the loop should ping: half the watchdog interval, as sd_watchdog_enabled(3)
    /// advises, so one late turn of the loop does not cost a restart.
    public var pingInterval: Duration? {
        guard let w = watchdogInterval else { return nil }
        return .nanoseconds(w.nanoseconds / 2)
    }

    /// Reads the watchdog settings from the environment systemd gave this process. The
    /// environment is left as it is (no `unset_environment`), so later notifications still
    /// find the socket.
    public init() {
        // As sd_watchdog_enabled(3): WATCHDOG_USEC, for this process when WATCHDOG_PID names it
        // (or is unset). A malformed or zero value is treated as not watched, not as an error.
        let env = Process.environment
        let pidMatches = env("WATCHDOG_PID").map { Int32($0) == Process.id } ?? true
        if pidMatches, let text = env("WATCHDOG_USEC"), let usec = UInt64(text), usec > 0, usec <= UInt64(Int64.max / 1_000) {
            watchdogInterval = .nanoseconds(Int64(usec) * 1_000)
        } else {
            watchdogInterval = nil
        }
    }

    /// The loop has started and is reading its inputs: systemd may start what is ordered after us.
    @discardableResult
    public func ready(status: String) throws -> Delivery {
        try notify("READY=1\nSTATUS=\(Self.oneLine(status))")
    }

    /// The one line `systemctl status anchor-alert` shows; the words a skipper would read.
    @discardableResult
    public func status(_ text: String) throws -> Delivery {
        try notify("STATUS=\(Self.oneLine(text))")
    }

    /// "The loop is still turning." Call from the loop's own timer, every `pingInterval`.
    @discardableResult
    public func pingWatchdog() throws -> Delivery {
        try notify("WATCHDOG=1")
    }

    /// The loop is shutting down on purpose (SIGTERM): systemd will not count it as a crash.
    @discardableResult
    public func stopping(status: String) throws -> Delivery {
        try notify("STOPPING=1\nSTATUS=\(Self.oneLine(status))")
    }

    /// sd_notify's protocol is newline-separated assignments: a newline inside the status would
    /// start a new assignment.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    /// One datagram to `NOTIFY_SOCKET` (a path, or `@name` in the abstract namespace), as
    /// sd_notify(3) sends it, never waiting. A notification is a single datagram and each one is
    /// idempotent (READY, STATUS, WATCHDOG twice mean the same as once), so the room's retry on
    /// EINTR cannot do harm.
    private func notify(_ state: String) throws -> Delivery {
        guard let path = Process.environment("NOTIFY_SOCKET"), !path.isEmpty else { return .notSupervised }
        do {
            try UnixSocket.sendDatagram(Array(state.utf8), toPath: path)
            return .sent
        } catch let e as SystemError {
            throw NotifyError(errno: e.errno, message: e.detail ?? e.errno.description)
        }
    }
}
