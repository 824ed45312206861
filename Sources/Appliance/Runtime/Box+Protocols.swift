import Drivers
import Posix
import WatchCore

/// The journal as the box sees it. `submit` hands over one turn's actions and returns at once;
/// when any of them must be durable (a decision, an alarm change, a fault) it returns a ticket,
/// and a later `takeCompletions` says whether that record reached the card. Nothing is
/// reported as saved before its completion says so.
protocol DecisionLog: AnyObject {
    func submit(_ actions: [Action], now: Instant, wall: Double) -> LogTicket?
    /// When the loop must call `flushIfDue`: batched track records, or a retry.
    func nextDeadline() -> Instant?
    func flushIfDue(now: Instant)
    /// Tickets whose records are now durable (true) or failed (false), and the faults the log
    /// raised or cleared (disk full, read-only, recovered), since last asked.
    func takeCompletions() -> (tickets: [(LogTicket, saved: Bool)], events: [Event])
    /// The descriptor that becomes readable when completions wait, if the log works off the loop.
    var completionFD: Int32? { get }
}

/// Names one `submit` whose durability the box waits on.
struct LogTicket: Hashable {
    var number: UInt64
}

/// Something that shows the watch: the LED ring, the status snapshot, the demo's screen.
protocol BoxObserver: AnyObject {
    func show(_ status: WatchStatus, now: Instant)
    /// The same with the parts' Systems Check rows, for an observer that shows them (the
    /// snapshot, MQTT); by default the rows are not looked at.
    func show(_ status: WatchStatus, checks: [SystemsCheck.Row], now: Instant)
    /// When the display would change by time alone (an animation step, a countdown, a refresh).
    func nextDeadline(now: Instant) -> Instant?
}

extension BoxObserver {
    func show(_ status: WatchStatus, checks: [SystemsCheck.Row], now: Instant) { show(status, now: now) }
}

/// What a command-line decision gets back.
enum DecisionOutcome: Equatable {
    /// Applied; `saved` is false when the journal could not make it durable.
    case accepted(Receipt, saved: Bool)
    case refused(Refusal)
}

/// A source whose decisions carry a reply (the control socket, the network inputs): the run
/// loop hands it the box, so each reply can wait for the journal.
protocol BoxServer: Pollable {
    func serve(_ ready: [PollDescriptor], now: Instant, box: Box)
}
