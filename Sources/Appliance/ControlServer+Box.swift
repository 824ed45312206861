import Drivers
import Posix
import WatchCore

extension Box {
    /// One decision from another process (the control socket, MQTT) and its one answer: a
    /// refusal at once; a receipt once the journal's completion says the decision is durable
    /// or not (a later turn); or "nothing to do" at once for a decision the watch took
    /// silently, so no client waits for an answer that will never come.
    func decide(_ decision: Decision, now: Instant, answer: @escaping (ControlReply) -> Void) {
        let answers = handle(.decision(decision), now: now) { [self] outcome in
            switch outcome {
            case .accepted(let receipt, let saved): answer(.receipt(receipt, saved: saved, now: now))
            case .refused(let why): answer(.refused(decision, why, settings: watch.settings))
            }
        }
        if !answers { answer(.nothingToDo) }
    }
}

extension ControlServer: Part, BoxServer {
    var polled: Pollable? { self }
    var served: BoxServer? { self }
    func stop(now: Instant) { close() }

    /// For the run loop: services the socket and takes each decision through the box.
    func serve(_ ready: [PollDescriptor], now: Instant, box: Box) {
        for request in serviceRequests(ready: ready, now: now) {
            box.decide(request.decision, now: now) { [self] in reply(to: request.ticket, $0) }
        }
    }
}
