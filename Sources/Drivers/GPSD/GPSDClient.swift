import Posix
import WatchCore

/// GPS from gpsd: connects without blocking the loop, reads its JSON reports from the socket, turns
/// each TPV into a `GPSReading`, and raises and clears the gpsd, receiver and clock faults.
///
/// Faults and why they push or not:
/// - `.gpsd` not running, unreachable, refusing: pushes. The box can't watch without it, and
///   nothing else will tell the skipper. Raised only after `gpsdGrace`, so boot order and a
///   quick gpsd restart sound nothing.
/// - `.gpsd` restarted: does not push. gpsd is back; it is a note for the journal and the
///   Systems Check until the first report arrives (or the receiver fault takes over).
/// - `.receiver` unplugged, no receiver, reports stopped, repeating an old fix: pushes. "GPS
///   device gone" is the design's own example of a fault that must be announced.
/// - `.clock` far from GPS time: does not push. The watch runs on the monotonic clock, so the
///   alarm is unaffected; only the journal's stamps and the recap are wrong, and the skipper
///   can't fix a Pi's missing battery clock at 03:00.
/// - No fix is not a driver fault: it is a reading with mode `.noFix`, and the watch says
///   "Can't judge" (and, armed, raises `.gpsLost` after its grace).
public final class GPSDClient: Pollable {
    public let settings: GPSDSettings

    /// What happened so far, for the Systems Check and for tests.
    public struct Stats: Hashable, Sendable {
        public var connects = 0
        public var disconnects = 0
        public var reports = 0
        /// TPVs dropped because they repeated the previous GPS time.
        public var repeated = 0
        /// Lines that were not JSON gpsd would send, or a TPV that could not be read.
        public var garbage = 0
        /// gpsd's release, from its VERSION banner.
        public var gpsdRelease: String?
    }
    public private(set) var stats = Stats()

    enum Failure: Equatable {
        case refused, timedOut, unreachable, unknownHost, rejected
    }

    private enum Phase {
        case waiting(until: Instant)
        case connecting(TCPConnectProbe, candidates: [TCPConnectProbe.Address], index: Int, deadline: Instant)
        case streaming
    }

    private var phase: Phase
    private let connection = GPSDConnection()
    /// UTC seconds for the receiver's clock check (internal: `OneClockReadingTests` reads it).
    let wallClock: () -> Double
    private var pending: [Event] = []

    // The connection's history.
    private var downSince: Instant?
    private var lastFailure: Failure?
    private var failures = 0
    private var hadStream = false
    /// gpsd's VERSION banner arrived on this connection: only that proves a live gpsd, since a
    /// gpsd that is shutting down still accepts for a moment and then closes.
    private var bannerSeen = false
    /// Set when the batch limit left whole lines in the connection's buffer: poll won't say so.
    private var bufferedSince: Instant?

    // The receiver, while streaming.
    private var streamingSince = Instant.zero
    private var lastReportAt: Instant?
    private var deviceGone = false
    private var knownDevices: Int?
    private var lastGPSTime: Double?
    private var gpsTimeSince: Instant?
    private var frozen = false

    /// The faults this driver has raised, so only changes are sent.
    public private(set) var raised: [FaultKind: Fault] = [:]

    /// `now` is the loop's monotonic time; the first connect happens on the first `service`.
    /// `wallClock` returns UTC seconds for the receiver's clock check: in the running box the
    /// loop's turn (`LoopClock`, given by `Wiring`), never a clock read of the driver's own.
    public init(
        settings: GPSDSettings = GPSDSettings(), now: Instant,
        wallClock: @escaping () -> Double = GPSDClient.systemWallClock
    ) {
        self.settings = settings
        self.wallClock = wallClock
        self.phase = .waiting(until: now)
        // Down until a gpsd says hello: the grace for the gpsd fault starts now.
        self.downSince = now
        // The WATCH request is sent with MSG_NOSIGNAL; SIGPIPE stays ignored for whoever else
        // writes to a peer that may be gone.
        Signal.ignoreBrokenPipe()
    }

    public static func systemWallClock() -> Double {
        WallClock.seconds()
    }

    /// True once a gpsd on this connection has said hello: until then (at start, and after a
    /// connection is lost) nobody knows whether gpsd or the receiver works, and the gpsd fault
    /// waits for `gpsdGrace` before it says what is wrong.
    public var isAnswering: Bool { isConnected && bannerSeen }

    /// True while a gpsd connection is streaming.
    public var isConnected: Bool {
        if case .streaming = phase { return true }
        return false
    }

    // MARK: - Pollable

    public func pollRequests() -> [PollDescriptor] {
        switch phase {
        case .waiting: return []
        case .connecting(let probe, _, _, _): return [PollDescriptor(fd: probe.fd, wanted: PollEvents.writable)]
        case .streaming: return connection.fd.map { [PollDescriptor(fd: $0, wanted: PollEvents.readable)] } ?? []
        }
    }

    public func nextDeadline() -> Instant? {
        var next: Instant?
        func consider(_ t: Instant) { next = next.map { min($0, t) } ?? t }
        if let t = bufferedSince { consider(t) }
        switch phase {
        case .waiting(let until):
            consider(until)
        case .connecting(_, _, _, let deadline):
            consider(deadline)
        case .streaming:
            if raised[.receiver] == nil, !deviceGone {
                consider((lastReportAt ?? streamingSince) + settings.reportsStoppedAfter)
            }
        }
        if !bannerSeen, let since = downSince, raised[.gpsd] == nil {
            consider(since + settings.gpsdGrace)
        }
        return next
    }

    public func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        switch phase {
        case .waiting(let until):
            if now >= until { attempt(now) }
        case .connecting(let probe, let candidates, let index, let deadline):
            if ready.contains(where: { $0.fd == probe.fd }) {
                finishProbe(probe, probe.finish(), candidates: candidates, index: index, now: now)
            } else if now >= deadline {
                probe.close()
                fail(.timedOut, now)
            }
        case .streaming:
            let fd = connection.fd
            let event = ready.first { $0.fd == fd }
            if event != nil || bufferedSince != nil {
                readBatch(revents: event?.happened ?? 0, now: now)
            }
        }
        evaluate(now)
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    // MARK: - Connecting

    private func attempt(_ now: Instant) {
        guard let candidates = TCPConnectProbe.resolve(host: settings.host, port: settings.port) else {
            return fail(.unknownHost, now)
        }
        startProbe(candidates: candidates, index: 0, now: now)
    }

    private func startProbe(candidates: [TCPConnectProbe.Address], index: Int, now: Instant) {
        let probe = TCPConnectProbe(address: candidates[index])
        let outcome = probe.start()
        if outcome == .inProgress {
            phase = .connecting(probe, candidates: candidates, index: index,
                                deadline: now + settings.connectTimeout)
        } else {
            finishProbe(probe, outcome, candidates: candidates, index: index, now: now)
        }
    }

    private func finishProbe(_ probe: TCPConnectProbe, _ outcome: TCPConnectProbe.Outcome, candidates: [TCPConnectProbe.Address],
                             index: Int, now: Instant) {
        switch outcome {
        case .inProgress:
            break
        case .connected:
            open(probe.takeSocket(), now: now)
        case .failed(let error):
            // localhost is both ::1 and 127.0.0.1; gpsd may listen on only one of them.
            if index + 1 < candidates.count {
                return startProbe(candidates: candidates, index: index + 1, now: now)
            }
            switch error.errno {
            case .connectionRefused: fail(.refused, now)
            case .timedOut: fail(.timedOut, now)
            default: fail(.unreachable, now)
            }
        }
    }

    private func open(_ socket: Int32, now: Instant) {
        do {
            try connection.adopt(socket)
        } catch {
            // Accepted a moment ago and gone already: gpsd going away in between.
            return fail(.refused, now)
        }
        phase = .streaming
        stats.connects += 1
        bannerSeen = false
        streamingSince = now
        lastReportAt = nil
        deviceGone = false
        knownDevices = nil
        lastGPSTime = nil
        gpsTimeSince = nil
        frozen = false
    }

    /// gpsd said hello: the connection is good, and the gpsd fault is settled.
    private func greeted() {
        bannerSeen = true
        failures = 0
        downSince = nil
        lastFailure = nil
        if hadStream {
            setFault(.gpsd, Fault(.gpsd, GPSDWords.restarted, pushes: false))
        } else {
            setFault(.gpsd, nil)
        }
        hadStream = true
    }

    private func fail(_ failure: Failure, _ now: Instant) {
        let delay = min(settings.backoffFirst.seconds * Double(1 << min(failures, 20)), settings.backoffMax.seconds)
        failures += 1
        phase = .waiting(until: now + .seconds(delay))
        if downSince == nil { downSince = now }
        lastFailure = failure
    }

    private func lost(_ now: Instant) {
        connection.close()
        bufferedSince = nil
        stats.disconnects += 1
        if downSince == nil { downSince = now }
        if bannerSeen { failures = 0 }
        bannerSeen = false
        lastFailure = .refused
        // What the receiver does is unknown while gpsd is away; the gpsd fault says why.
        setFault(.receiver, nil)
        // A restart is the common case: try again at once.
        attempt(now)
    }

    // MARK: - Reading

    private func readBatch(revents: Int16, now: Instant) {
        bufferedSince = nil
        var progressed = false
        for _ in 0..<max(settings.batch, 1) {
            switch connection.read() {
            case .message(let message):
                progressed = true
                handle(message, now)
            case .garbage:
                progressed = true
                stats.garbage += 1
            case .none:
                if !progressed, revents & PollEvents.readableOrClosed != 0, connection.peerClosed() {
                    lost(now)
                }
                return
            case .closed:
                return lost(now)
            }
        }
        bufferedSince = now
    }

    private func handle(_ message: GPSDMessage, _ now: Instant) {
        switch message {
        case .tpv(let fix):
            stats.reports += 1
            lastReportAt = now
            deviceGone = false
            if raised[.gpsd]?.message == GPSDWords.restarted { setFault(.gpsd, nil) }
            if let t = fix.time {
                if t == lastGPSTime {
                    // The same epoch again is no new evidence; for long, it is a frozen receiver.
                    stats.repeated += 1
                    if let since = gpsTimeSince, now - since >= settings.frozenAfter { frozen = true }
                    return
                }
                lastGPSTime = t
                gpsTimeSince = now
                frozen = false
                checkClock(gpsTime: t)
            }
            pending.append(.reading(fix.reading(received: now)))
        case .device(_, let active):
            deviceGone = !active
        case .devices(let count):
            knownDevices = count
        case .version(let release):
            stats.gpsdRelease = release
            if !bannerSeen { greeted() }
        case .error, .other:
            break
        }
    }

    private func checkClock(gpsTime: Double) {
        let offset = gpsTime - wallClock()
        if abs(offset) > settings.clockTolerance.seconds {
            setFault(.clock, Fault(.clock, GPSDWords.clock(offset: offset), pushes: false))
        } else {
            setFault(.clock, nil)
        }
    }

    // MARK: - Faults

    private func evaluate(_ now: Instant) {
        if isConnected, bannerSeen {
            var receiver: Fault?
            if deviceGone {
                receiver = Fault(.receiver, GPSDWords.unplugged)
            } else if now - (lastReportAt ?? streamingSince) >= settings.reportsStoppedAfter {
                let none = lastReportAt == nil && knownDevices == 0
                receiver = Fault(.receiver, none ? GPSDWords.noReceiver : GPSDWords.reportsStopped)
            } else if frozen {
                receiver = Fault(.receiver, GPSDWords.frozen)
            }
            setFault(.receiver, receiver)
            // Once the receiver fault explains the silence, the restart note has said its piece.
            if receiver != nil, raised[.gpsd]?.pushes == false { setFault(.gpsd, nil) }
        } else if let since = downSince, now - since >= settings.gpsdGrace {
            // Connected but never greeted: something on that port that is not a working gpsd.
            setFault(.gpsd, fault(for: isConnected ? .rejected : lastFailure ?? .refused))
        }
    }

    private func fault(for failure: Failure) -> Fault {
        let (host, port) = (settings.host, settings.port)
        switch failure {
        case .refused: return Fault(.gpsd, GPSDWords.notRunning(host: host, port: port))
        case .timedOut: return Fault(.gpsd, GPSDWords.noAnswer(host: host, port: port))
        case .unreachable: return Fault(.gpsd, GPSDWords.unreachable(host: host, port: port))
        case .unknownHost: return Fault(.gpsd, GPSDWords.unknownHost(host))
        case .rejected: return Fault(.gpsd, GPSDWords.refused)
        }
    }

    /// Sends only changes. A pushing fault replaced by a quiet one of the same kind is cleared
    /// first: the watch turns the fault sound off only on a clear.
    private func setFault(_ kind: FaultKind, _ fault: Fault?) {
        if let fault {
            guard raised[kind] != fault else { return }
            if let old = raised[kind], old.pushes, !fault.pushes { pending.append(.faultCleared(kind)) }
            raised[kind] = fault
            pending.append(.faultRaised(fault))
        } else if raised.removeValue(forKey: kind) != nil {
            pending.append(.faultCleared(kind))
        }
    }
}
