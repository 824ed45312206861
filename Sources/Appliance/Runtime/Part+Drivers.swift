import Drivers
import WatchCore

// What each driver is as a part of the box (`Part`).

/// gpsd, and its Systems Check rows while it has not answered and its fault's grace runs: not
/// Yes (nothing has answered) and not a fault yet (boot order, a quick restart), but can't tell.
extension GPSDClient: Part, CheckedPart {
    var polled: Pollable? { self }
    var checked: CheckedPart? { self }

    var rows: [SystemsCheck.Row] {
        guard !isAnswering, raised[.gpsd] == nil else { return [] }
        let at = GPSDWords.isLocal(settings.host) ? "" : " at \(settings.host):\(settings.port)"
        return [SystemsCheck.Row(.gpsd, .unknown, "Can't tell yet: no answer from gpsd\(at) so far"),
                SystemsCheck.Row(.receiver, .unknown, "Can't tell yet: gpsd has not answered")]
    }
}

extension SimulatedGPS: Part {
    var polled: Pollable? { self }
}

/// The buzzer's line: its fault at start, low on a clean stop.
extension GPIOBuzzer: Part {
    var polled: Pollable? { self }
    func stop(now: Instant) { shutdown() }
}

/// The arm switch and the button: the switch's position at start is a decision.
extension GPIOControls: Part {
    var polled: Pollable? { self }
    func stop(now: Instant) { shutdown() }
}

extension ALSASiren: Part {
    var polled: Pollable? { self }
    func stop(now: Instant) { stopAll() }
}

/// The ring shows the watch; a decision answered keeps it at working brightness for a while:
/// a refusal at once, an accepted decision only when the journal has it (a failed save shows
/// as the journal fault instead).
extension LEDRing: Part, BoxObserver, BoxListener {
    var polled: Pollable? { self }
    var shown: BoxObserver? { self }
    var hearing: BoxListener? { self }

    func heard(_ actions: [Action], box: Box, now: Instant) {
        if actions.contains(where: { if case .refused = $0 { true } else { false } }) { activity(at: now) }
    }

    func confirmed(_ receipt: Receipt, saved: Bool, now: Instant) {
        if saved { activity(at: now) }
    }
}

/// The journal: its completion pipe polled; closed last, what is batched on the card first.
extension JournalLog: Part {
    var polled: Pollable? { self }
    func stop(now: Instant) { close(now: now) }
}

/// `run`'s standard output and error, polled for POLLOUT while a line waits.
extension ConsoleSink: Part {
    var polled: Pollable? { self }
}
