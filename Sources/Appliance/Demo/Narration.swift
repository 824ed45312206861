import WatchCore

/// One line in the product's words for each action worth telling, for the demo and the log.
enum Narration {
    static func line(_ action: Action, now: Instant, settings: WatchSettings) -> String? {
        switch action {
        case .verdictChanged(_, let to):
            switch to {
            case .cantJudge(let why): return "Can't judge: \(Words.cantJudge(why))"
            case .checking: return "Checking: GPS readings stand beyond the alert radius"
            case .dragging: return "Dragging: the evidence beyond the alert radius added up"
            case .holding: return "Holding"
            case .noAnchor: return "No anchor"
            }
        case .alarmChanged(_, let to):
            switch to {
            case .ringing(let e): return "Alarm: ringing (alarm \(e))"
            case .snoozed(let until, _): return "Snoozing \(Words.countdown(until - now))"
            case .armed: return "Alarm on"
            case .off: return "Alarm off"
            }
        case .accepted(let receipt, _):
            if case .arm = receipt.decision { return nil }
            if case .disarm = receipt.decision { return nil }
            if case .snooze = receipt.decision { return nil }
            return Words.receipt(receipt, now: now)
        case .refused(_, let why): return Words.refusal(why, settings: settings)
        case .faultRaised(let f): return "Fault: \(f.message)"
        case .faultCleared(let k): return "Fault cleared: \(Words.component(k))"
        default: return nil
        }
    }
}
