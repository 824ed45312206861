import Drivers
import WatchCore

extension ControlServer: DecisionServer {
    /// For the run loop: services the socket and takes each decision through the box. The box
    /// replies once its journal has made the decision durable (or refuses at once); a decision
    /// the watch took silently (nothing to change) is answered "nothing to do", so no client
    /// waits for an answer that will never come.
    func serve(_ ready: [PollRequest], now: Instant, box: Box) {
        for request in serviceRequests(ready: ready, now: now) {
            var answered = false
            box.handle(request.event, now: now) { [self] outcome in
                answered = true
                switch outcome {
                case .accepted(let receipt, let saved):
                    reply(to: request.ticket, .receipt(receipt, saved: saved, now: now))
                case .refused(let why):
                    reply(to: request.ticket, .refused(request.decision, why, settings: box.watch.settings))
                }
            }
            if !answered { reply(to: request.ticket, .nothingToDo) }
        }
    }
}
