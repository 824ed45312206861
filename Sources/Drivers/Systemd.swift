#if canImport(Glibc)
import Glibc
#endif

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
        public var errno: Int32
        public var message: String
        public var description: String { "systemd notification failed: \(message) (errno \(errno))" }
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
        let env = { (name: String) in getenv(name).map { String(cString: $0) } }
        let pidMatches = env("WATCHDOG_PID").map { Int32($0) == getpid() } ?? true
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
    /// sd_notify(3) sends it, never waiting (MSG_DONTWAIT). EINTR policy: retry. A
    /// notification is a single datagram and each one is idempotent (READY, STATUS, WATCHDOG
    /// twice mean the same as once), so a retry cannot do harm.
    private func notify(_ state: String) throws -> Delivery {
        guard let raw = getenv("NOTIFY_SOCKET"), raw.pointee != 0 else { return .notSupervised }
        var path = Array(String(cString: raw).utf8)
        guard path.first == UInt8(ascii: "/") || path.first == UInt8(ascii: "@") else {
            throw NotifyError(errno: EAFNOSUPPORT, message: "NOTIFY_SOCKET is not a unix socket path")
        }
        if path[0] == UInt8(ascii: "@") { path[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { throw NotifyError(errno: ENAMETOOLONG, message: String(cString: strerror(ENAMETOOLONG))) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw NotifyError(errno: errno, message: String(cString: strerror(errno))) }
        defer { close(fd) }
        let bytes = Array(state.utf8)
        while true {
            let r = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, length)
                }
            }
            if r >= 0 { return .sent }
            if errno == EINTR { continue }
            throw NotifyError(errno: errno, message: String(cString: strerror(errno)))
        }
    }
}
