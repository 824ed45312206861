import Drivers
import WatchCore

extension ControlServer: DecisionServer {
    /// For the run loop: services the socket and takes each decision through the box. The box
    /// replies once its journal's completion says the decision is durable or not (a later turn),
    /// or refuses at once; a decision
    /// the watch took silently (nothing to change) is answered "nothing to do", so no client
    /// waits for an answer that will never come.
    func serve(_ ready: [PollRequest], now: Instant, box: Box) {
        for request in serviceRequests(ready: ready, now: now) {
            let answers = box.handle(request.event, now: now) { [self] outcome in
                switch outcome {
                case .accepted(let receipt, let saved):
                    reply(to: request.ticket, .receipt(receipt, saved: saved, now: now))
                case .refused(let why):
                    reply(to: request.ticket, .refused(request.decision, why, settings: box.watch.settings))
                }
            }
            if !answers { reply(to: request.ticket, .nothingToDo) }
        }
    }
}
