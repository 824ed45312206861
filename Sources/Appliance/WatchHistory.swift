import WatchCore
import Journal

/// What recap, export and `mark --ago` read from the journal: its records in order, each with
/// its wall time. The cases mirror the journal's record types (Docs/journal-format.md); an
/// adapter over the journal's reader is all a new source needs.
protocol WatchHistory {
    /// Calls `body` with every entry, oldest first (the journal's order, which is the order
    /// things happened even when the wall clock jumped at a boot).
    func scan(_ body: (HistoryEntry) throws -> Void) throws
    /// Where the boat was at `time`, from the track, within `tolerance`.
    func position(at time: WallTime, tolerance: Duration) throws -> (Coordinate, WallTime)?
}

struct HistoryEntry: Hashable, Sendable {
    var at: WallTime
    var event: HistoryEvent
}

enum HistoryEvent: Hashable, Sendable {
    /// What the box guarded at this point (the journal restates it at the start of every
    /// segment): context for what follows, never news in itself.
    case state(anchor: Coordinate?, radius: Meters, armed: Bool)
    /// A start, and how the run before it ended (a power cut or crash when it never shut down).
    case boot(after: PreviousStop)
    /// A clean stop.
    case shutdown
    case mark(Coordinate)
    case release
    case radius(Meters)
    case arm
    case disarm
    case alarmStart(episode: Int)
    case snooze(episode: Int, length: Duration)
    /// A snooze ended with the boat holding.
    case alarmStop(episode: Int)
    case verdict(from: PositionVerdict.Kind, to: PositionVerdict.Kind, reason: CantJudgeReason?)
    case faultRaised(Fault)
    case faultCleared(FaultKind)
    case fix(position: Coordinate, accuracy: Meters?, distance: Meters?)
}

extension WatchHistory {
    func entries(from: WallTime? = nil, to: WallTime? = nil) throws -> [HistoryEntry] {
        var out: [HistoryEntry] = []
        try scan { e in
            if let from, e.at < from { return }
            if let to, e.at > to { return }
            out.append(e)
        }
        return out
    }

    /// Where the boat was at `time`: the track fix nearest to it, if one lies within
    /// `tolerance`. Used by `mark --ago`.
    func position(at time: WallTime, tolerance: Duration) throws -> (Coordinate, WallTime)? {
        var best: (Coordinate, WallTime, Double)?
        try scan { e in
            guard case .fix(let p, _, _) = e.event else { return }
            let gap = abs((e.at - time).seconds)
            if gap <= tolerance.seconds, gap < best?.2 ?? .infinity { best = (p, e.at, gap) }
        }
        return best.map { ($0.0, $0.1) }
    }
}
