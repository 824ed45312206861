import Drivers
import WatchCore

/// The journal as the box sees it. `record` appends the records for one handful of actions and,
/// when any of them must be durable (a decision, an alarm change, a fault), syncs before it
/// returns; it returns false when a needed sync failed, so nothing is reported as saved.
protocol DecisionLog: AnyObject {
    func record(_ actions: [Action], now: Instant, wall: Double) -> Bool
    /// When batched track records must be flushed, if any are pending.
    func nextDeadline() -> Instant?
    func flushIfDue(now: Instant)
    /// Faults the log raised or cleared since last asked (disk full, read-only, recovered).
    func takeEvents() -> [Event]
}

/// Something that shows the watch: the LED ring, the status snapshot, the demo's screen.
protocol BoxObserver: AnyObject {
    func show(_ status: WatchStatus, now: Instant)
    /// When the display would change by time alone (an animation step, a countdown, a refresh).
    func nextDeadline(now: Instant) -> Instant?
}

/// What a command-line decision gets back.
enum DecisionOutcome: Equatable {
    /// Applied; `saved` is false when the journal could not make it durable.
    case accepted(Receipt, saved: Bool)
    case refused(Refusal)
}

/// A source whose decisions carry a reply (the control socket, the network inputs): the run
/// loop hands it the box, so each reply can wait for the journal.
protocol DecisionServer: Pollable {
    func serve(_ ready: [PollRequest], now: Instant, box: Box)
}
