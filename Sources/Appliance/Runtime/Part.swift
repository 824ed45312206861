import Drivers
import WatchCore

/// One part of the running box: a driver, the journal, a surface, a network output, the
/// console's log, systemd's watchdog. `Wiring.parts` builds every part `run` has, in start
/// order, from the configuration; `Box` takes that one list, sorts it by what each part does
/// once, at start, and stops it in reverse. A part names only what it does; the rest is nil.
protocol Part: AnyObject {
    /// What the loop polls and serves for it: its descriptors, its deadline, its events.
    var polled: Pollable? { get }
    /// The same source when it answers decisions, handed the box so each reply can wait for
    /// the journal (the control socket, the network inputs, the Systems Check).
    var served: BoxServer? { get }
    /// Shown the watch's status as it is, once a turn (the ring, the snapshot, the demo's screen).
    var shown: BoxObserver? { get }
    /// Shown the status the box tells (`AnnouncedStatus`): a decision only with its receipt, a
    /// ringing alarm at once (the network outputs).
    var told: BoxObserver? { get }
    /// Hears each action carried out and each receipt (the console's log, the ring's
    /// confirmation, systemd's status line).
    var hearing: BoxListener? { get }
    /// Its Systems Check rows, for the snapshot and MQTT (the monitor's, the network outputs').
    var checked: CheckedPart? { get }
    /// What it knows at the box's first turn (a line's fault, the arm switch's position).
    func start(now: Instant) -> [Event]
    /// On a clean stop (SIGTERM, SIGINT), in reverse start order: outputs to a safe state,
    /// sockets and files closed.
    func stop(now: Instant)
}

extension Part {
    var polled: Pollable? { nil }
    var served: BoxServer? { nil }
    var shown: BoxObserver? { nil }
    var told: BoxObserver? { nil }
    var hearing: BoxListener? { nil }
    var checked: CheckedPart? { nil }
    func start(now: Instant) -> [Event] { [] }
    func stop(now: Instant) {}
}

/// What a part hears of the box's work: every action as it is carried out, and every decision's
/// receipt once the journal has it (or has failed to keep it).
protocol BoxListener: AnyObject {
    func heard(_ actions: [Action], box: Box, now: Instant)
    func confirmed(_ receipt: Receipt, saved: Bool, now: Instant)
}

extension BoxListener {
    func heard(_ actions: [Action], box: Box, now: Instant) {}
    func confirmed(_ receipt: Receipt, saved: Bool, now: Instant) {}
}

/// A part with rows of its own in the Systems Check.
protocol CheckedPart: AnyObject {
    var rows: [SystemsCheck.Row] { get }
}

/// A part that is only a Systems Check row: an output the configuration asked for but that
/// could not start (MQTT with a bad box name), so the check says why.
final class CheckRow: Part, CheckedPart {
    let rows: [SystemsCheck.Row]
    init(_ row: SystemsCheck.Row) { rows = [row] }
    var checked: CheckedPart? { self }
}
