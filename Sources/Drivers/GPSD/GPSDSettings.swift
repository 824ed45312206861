import WatchCore

/// The gpsd driver's tunables. Configuration keys (see the report): `gps.host`, `gps.port`,
/// `gps.reports_stopped_after`; the staleness and accuracy limits belong to the watch
/// (`WatchSettings.staleAfter`, `accuracyLimitFraction`), because the core judges with them.
public struct GPSDSettings: Hashable, Sendable {
    /// gpsd's host. An address (or `localhost`) never waits on a resolver; a name may (see
    /// `TCPConnectProbe.resolve`).
    public var host: String = "127.0.0.1"
    /// gpsd's port, IANA's 2947 by default.
    public var port: UInt16 = 2947

    /// No TPV report for this long while connected: the receiver fault. Longer than any sane
    /// receiver cycle (1 Hz typical, 0.1 Hz for the slowest NMEA talkers seen in the captures).
    public var reportsStoppedAfter: Duration = .seconds(15)
    /// Reports keep coming with the same GPS time for this long: the receiver repeats an old fix.
    public var frozenAfter: Duration = .seconds(15)
    /// gpsd unreachable for this long before the gpsd fault is raised. Covers boot order and a
    /// systemd restart of gpsd, which take a few seconds and deserve no fault pattern.
    public var gpsdGrace: Duration = .seconds(10)
    /// GPS time and the system clock further apart than this: the clock fault. Five minutes: a
    /// Pi without a battery-backed clock that has not yet synced is far further out than that,
    /// while a clock that merely drifts between syncs stays well inside it.
    public var clockTolerance: Duration = .seconds(300)

    /// A connect attempt that has not finished by then is abandoned.
    public var connectTimeout: Duration = .seconds(5)
    /// Backoff between failed attempts: doubles from the first to the cap. A lost connection is
    /// retried at once (a restart is the common case).
    public var backoffFirst: Duration = .milliseconds(250)
    public var backoffMax: Duration = .seconds(5)
    /// Most messages read per service call, so one chatty gpsd cannot starve the loop.
    public var batch: Int = 64

    public init() {}

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }
}
