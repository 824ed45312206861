import Drivers
import Posix
import WatchCore

/// Signal K deltas on a TCP port (`[signalk]`, Docs/network.md): a Signal K server's
/// "Signal K" data connection of type TCP connects here and reads one delta a line. An
/// announcer like the other outputs (a decision only with its receipt). Every send is
/// non-blocking: a client that can't keep up fills a bounded outbox and is dropped. Nothing
/// read from a client is acted on; it is read only to notice the client leaving.
final class SignalKOutput: Pollable, BoxObserver {
    let settings: SignalKSettings
    /// Bytes queued for one client that does not read before it is dropped.
    var outboxLimit: Int {
        get { fanOut.outboxLimit }
        set { fanOut.outboxLimit = newValue }
    }
    private let wall: () -> Double
    /// The clients: a new one past `max_clients` is turned away; one is dropped only when its
    /// outbox fills.
    private let fanOut: TCPFanOut
    private var retryAt: Instant?
    private var problem: String?
    /// What the last line with notifications said, and the mark and radius it carried.
    private var said: (anchor: SignalKDelta.Notification, gnss: SignalKDelta.Notification, mark: Coordinate?, radius: Meters)?
    private var lastStatus: WatchStatus?
    private var lastLineAt: Instant?
    private var lastDistance: Meters?
    private(set) var lines = 0
    var droppedClients: Int { fanOut.droppedClients }
    /// The distance goes out at most this often (every fix of a 10 Hz receiver would be noise).
    static let distanceEvery: Duration = .seconds(1)
    /// The GPS fault's words go out again at most this often as only its time moves.
    static let gpsWordsEvery: Duration = .seconds(5)
    private var gnssWordsAt: Instant?
    /// A server's data connection sends nothing; a client that sends more than this is not one,
    /// and is dropped rather than read turn after turn.
    static let inputLimit = 4096
    /// Connections the kernel holds for the box to accept.
    static let backlog: Int32 = 8

    init(settings: SignalKSettings, wall: @escaping () -> Double, now: Instant) {
        self.settings = settings
        self.wall = wall
        fanOut = TCPFanOut(maxClients: settings.maxClients, whenFull: .refuseNew, behindLimit: nil)
        open(now: now)
    }

    deinit { close() }

    var port: Int? { fanOut.port }
    var clientCount: Int { fanOut.clientCount }

    private func open(now: Instant) {
        do {
            try fanOut.listen(host: settings.listen, port: settings.port, backlog: Self.backlog)
            problem = nil
            retryAt = nil
        } catch {
            problem = "can't listen on \(settings.listen):\(settings.port) (\(error))"
            retryAt = now + .seconds(30)
        }
    }

    func close() { fanOut.close() }

    var row: SystemsCheck.Row {
        if let problem { return SystemsCheck.Row(.signalK, .attention, "No: \(problem); trying again") }
        return SystemsCheck.Row(.signalK, .ok, "Yes: TCP port \(port ?? settings.port), \(fanOut.clientCount) listening")
    }

    // MARK: - BoxObserver

    func show(_ status: WatchStatus, now: Instant) {
        lastStatus = status
        let anchor = SignalKDelta.anchor(status, now: now)
        let gnss = SignalKDelta.gnss(status)
        // A change of state, of the mark, the radius or a fault goes out at once; a message
        // that only moves with the distance ("Dragging: 62 m ...") rides with the distance, and
        // one that only moves with time (the GPS lost "for 6:00") at most every `gpsWordsEvery`.
        let changed = said.map {
            $0.anchor.state != anchor.state || $0.anchor.method != anchor.method
                || $0.gnss.state != gnss.state || $0.gnss.method != gnss.method
                || $0.mark != status.anchor || $0.radius != status.radius
        } ?? true
        let due = lastLineAt.map { now >= $0 + Self.distanceEvery } ?? true
        let gnssDue = said?.gnss != gnss && gnssWordsAt.map { now >= $0 + Self.gpsWordsEvery } ?? true
        if changed {
            said = (anchor, gnss, status.anchor, status.radius)
            gnssWordsAt = now
            send(SignalKDelta.line(status, now: now, wall: wall(), notifications: true), now: now)
        } else if gnssDue || due && status.anchor != nil && (status.distance != lastDistance || said?.anchor != anchor) {
            // The notifications go with it when either's words moved; both as they are now.
            let words = said?.anchor != anchor || gnssDue
            if words {
                said?.anchor = anchor
                if said?.gnss != gnss { gnssWordsAt = now }
                said?.gnss = gnss
            }
            send(SignalKDelta.line(status, now: now, wall: wall(), notifications: words), now: now)
        }
    }

    func nextDeadline(now: Instant) -> Instant? { nil }

    private func send(_ line: String, now: Instant) {
        lastLineAt = now
        lastDistance = lastStatus?.distance
        guard !fanOut.isEmpty else { return }
        lines += 1
        fanOut.broadcast(Array(line.utf8), now: now)
    }

    // MARK: - Pollable

    func pollRequests() -> [PollDescriptor] { fanOut.pollRequests() }

    func nextDeadline() -> Instant? { retryAt }

    func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        if let retryAt, now >= retryAt { open(now: now) }
        fanOut.service(ready: ready, now: now, greet: { c in
            // A server that connects in the night learns the present at once.
            guard let status = lastStatus else { return }
            lines += 1
            fanOut.queue(Array(SignalKDelta.line(status, now: now, wall: wall(), notifications: true).utf8), to: c, now: now)
        }, received: { c, _ in
            // Nothing read is acted on; it is read only to notice the client leaving.
            c.received <= Self.inputLimit
        })
        return []
    }
}
