import Drivers
import WatchCore

/// The box's side of the Systems Check for the checks no driver owns (journal space, power,
/// clock): a `Pollable` with no descriptors that runs `SystemsProbe` every `interval` and turns
/// a row going bad or good into `.faultRaised` / `.faultCleared` events for the watch. It
/// only ever clears faults it raised itself, so it never clears the journal driver's fault.
final class SystemsMonitor: Pollable {
    let probe: SystemsProbe
    let interval: Duration
    /// Due at once: the first turn of the loop runs the checks.
    private var next: Instant? = .zero
    private var raised: [FaultKind: SystemsCheck.Component] = [:]
    /// The last rows, for the snapshot's `checks`.
    private(set) var rows: [SystemsCheck.Row] = []
    /// The watch's active faults. A kind already raised by someone else (the journal driver's
    /// failed sync is also `.journal`) is left alone: raising would replace its message, and
    /// clearing it later would clear a fault this monitor doesn't own.
    var activeFaults: () -> [FaultKind: Fault] = { [:] }

    init(probe: SystemsProbe, interval: Duration = .seconds(60)) {
        self.probe = probe
        self.interval = interval
    }

    func pollRequests() -> [PollRequest] { [] }

    /// Due every `interval`, on the first turn the loop takes anyway from then on; the timer
    /// wakes it alone only if no turn came within `lateness` (a GPS reading's turn almost always
    /// does), so a holding box never wakes for its checks.
    func dueFrom() -> Instant? { next }
    func nextDeadline() -> Instant? { next.map { $0 + lateness } }
    var lateness: Duration { .nanoseconds(interval.nanoseconds / 6) }

    /// Runs the probe when due (the first call always runs it).
    func service(ready: [PollRequest], now: Instant) -> [Event] {
        if let next, now < next { return [] }
        next = now + interval
        return update(with: probe.rows())
    }

    /// Pure step, tested directly: rows in, fault events out.
    func update(with rows: [SystemsCheck.Row]) -> [Event] {
        self.rows = rows
        var events: [Event] = []
        let active = activeFaults()
        for row in rows {
            guard let kind = row.component.faultKind else { continue }
            if active[kind] != nil, raised[kind] == nil { continue }
            let bad = row.status == .failing || row.status == .attention
            if bad {
                let fault = Fault(kind, "\(Self.label(row.component)): \(Self.consequence(row))", pushes: row.status == .failing)
                raised[kind] = row.component
                events.append(.faultRaised(fault))
            } else if raised[kind] == row.component {
                raised[kind] = nil
                events.append(.faultCleared(kind))
            }
        }
        return events
    }

    static func label(_ c: SystemsCheck.Component) -> String {
        switch c {
        case .journalSpace: "Journal"
        case .power: "Power"
        case .clock: "Clock"
        default: c.rawValue
        }
    }

    /// "No: 12 MB free of 30 GB" reads as "Journal: 12 MB free of 30 GB".
    static func consequence(_ row: SystemsCheck.Row) -> String {
        var a = row.answer
        for prefix in ["No: ", "Yes: "] where a.hasPrefix(prefix) { a.removeFirst(prefix.count) }
        return a.lowercasedFirst
    }
}
