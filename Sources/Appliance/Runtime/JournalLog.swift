import Drivers
import Posix
import Journal
import WatchCore

/// The journal as the box's `DecisionLog`: a `JournalWriter` whose thread appends and syncs,
/// decisions and state changes durable before they are confirmed, the track batched at the
/// pace the watch's state asks for.
final class JournalLog: DecisionLog {
    let writer: JournalWriter
    /// The watch's current pace for the track (every fix while checking or ringing).
    var pace: () -> TrackPace = { .calm }
    private let wall: () -> Double

    init(journal: Journal, threaded: Bool = true, wall: @escaping () -> Double) {
        self.writer = JournalWriter(journal: journal, threaded: threaded)
        self.wall = wall
    }

    private func stamp(_ now: Instant, _ wallSeconds: Double? = nil) -> Stamp {
        Stamp(monotonic: now, wall: WallTime(seconds: wallSeconds ?? wall()))
    }

    func submit(_ actions: [Action], now: Instant, wall: Double) -> LogTicket? {
        writer.record(actions, pace: pace(), at: stamp(now, wall)).map { LogTicket(number: $0.number) }
    }

    func nextDeadline() -> Instant? { writer.nextDeadline }

    func flushIfDue(now: Instant) {
        guard let due = writer.nextDeadline, now >= due else { return }
        writer.flushIfDue(at: stamp(now))
    }

    var completionFD: Int32? { writer.completionFD }

    func takeCompletions() -> (tickets: [(LogTicket, saved: Bool)], events: [Event]) {
        var tickets: [(LogTicket, saved: Bool)] = []
        var events: [Event] = []
        for c in writer.takeCompletions() {
            events += c.events
            guard let t = c.ticket else { continue }
            if case .notSaved = c.saved {
                tickets.append((LogTicket(number: t.number), false))
            } else {
                tickets.append((LogTicket(number: t.number), true))
            }
        }
        return (tickets, events)
    }

    /// On SIGTERM: what is batched goes to disk, then the files close.
    func close(now: Instant) {
        writer.close(at: stamp(now))
    }
}

/// The loop polls the writer's completion pipe; `Box.serve` takes the completions.
extension JournalLog: Pollable {
    func pollRequests() -> [PollDescriptor] { completionFD.map { [PollDescriptor(fd: $0, wanted: PollEvents.readable)] } ?? [] }
    func service(ready: [PollDescriptor], now: Instant) -> [Event] { [] }
}
