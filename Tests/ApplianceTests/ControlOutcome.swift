import WatchCore

/// What the watch's actions for one socket decision mean for the client that sent it. The
/// loop calls `ControlOutcome(actions)` on the actions of `watch.handle(request.event, at:)`.
enum ControlOutcome: Hashable, Sendable {
    /// Journal it, sync, then `server.reply(to: ticket, .receipt(receipt, saved:, now:))`.
    case accepted(Receipt, Chirp)
    /// Answer at once: `server.reply(to: ticket, .refused(decision, refusal))`.
    case refused(Decision, Refusal)
    /// The watch changed nothing (already so): answer at once with `.nothingToDo`.
    case nothing

    init(_ actions: [Action]) {
        for a in actions {
            switch a {
            case .accepted(let r, let chirp): self = .accepted(r, chirp); return
            case .refused(let d, let why): self = .refused(d, why); return
            default: continue
            }
        }
        self = .nothing
    }
}
