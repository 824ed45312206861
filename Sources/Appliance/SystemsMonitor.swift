import Drivers
import Posix
import WatchCore

/// The box's side of the Systems Check for the checks no driver owns (journal space, power,
/// clock): a `Pollable` with no descriptors that runs `SystemsProbe` every `interval` and turns
/// a row going bad or good into `.faultRaised` / `.faultCleared` events for the watch. It
/// only ever clears faults it raised itself, so it never clears the journal driver's fault.
/// A `BoxServer`: handed the box, it reads the watch's active faults when it runs.
final class SystemsMonitor: Part, BoxServer, CheckedPart {
    let probe: any SystemsProbing
    let interval: Duration
    /// Due at once: the first turn of the loop runs the checks.
    private var next: Instant? = .zero
    private var raised: [FaultKind: SystemsCheck.Component] = [:]
    /// The last rows, for the snapshot's `checks`.
    private(set) var rows: [SystemsCheck.Row] = []

    init(probe: any SystemsProbing, interval: Duration = .seconds(60)) {
        self.probe = probe
        self.interval = interval
    }

    func pollRequests() -> [PollDescriptor] { [] }

    /// Due every `interval`, on the first turn the loop takes anyway from then on; the timer
    /// wakes it alone only if no turn came within `lateness` (a GPS reading's turn almost always
    /// does), so a holding box never wakes for its checks.
    func dueFrom() -> Instant? { next }
    func nextDeadline() -> Instant? { next.map { $0 + lateness } }
    var lateness: Duration { .nanoseconds(interval.nanoseconds / 6) }

    var polled: Pollable? { self }
    var served: BoxServer? { self }
    var checked: CheckedPart? { self }

    /// Runs the probe when due (the first call always runs it), against the watch's faults.
    func serve(_ ready: [PollDescriptor], now: Instant, box: Box) {
        for event in check(now: now, active: box.watch.faults) { box.handle(event, now: now) }
    }

    /// The same without a box: no fault is active but the ones this monitor raised.
    func service(ready: [PollDescriptor], now: Instant) -> [Event] { check(now: now, active: [:]) }

    private func check(now: Instant, active: [FaultKind: Fault]) -> [Event] {
        if let next, now < next { return [] }
        next = now + interval
        return update(with: probe.rows(), active: active)
    }

    /// Pure step, tested directly: rows in, fault events out. A kind already raised by someone
    /// else in `active` (the journal driver's failed sync is also `.journal`) is left alone:
    /// raising would replace its message, and clearing it later would clear a fault this
    /// monitor doesn't own.
    func update(with rows: [SystemsCheck.Row], active: [FaultKind: Fault] = [:]) -> [Event] {
        self.rows = rows
        var events: [Event] = []
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
