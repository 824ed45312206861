import Journal
import WatchCore

/// The journal as `WatchHistory`, through the journal's own reader (the same recovery rules
/// as the box, changing nothing on disk: safe while the box runs).
struct JournalHistory: WatchHistory {
    var directory: String

    struct NotReadable: Error, CustomStringConvertible {
        var description: String
    }

    init(directory: String) { self.directory = directory }

    func scan(_ body: (HistoryEntry) throws -> Void) throws {
        var failure: Error?
        let notes = JournalReader(directory: directory).forEach { entry in
            guard let event = Self.event(entry.record) else { return true }
            do {
                try body(HistoryEntry(at: entry.stamp.wall, event: event))
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        if notes.contains(.missing) { throw NotReadable(description: "Journal: none in \(directory)") }
    }

    /// The journal reader's answer: between the fixes either side of `time` (interpolated),
    /// else the nearest within `tolerance`.
    func position(at time: WallTime, tolerance: Duration) throws -> (Coordinate, WallTime)? {
        JournalReader(directory: directory).position(at: time, tolerance: tolerance).map { ($0.position, $0.wall) }
    }

    static func event(_ record: JournalRecord) -> HistoryEvent? {
        switch record {
        case .segment, .farthest, .swing: nil
        case .snapshot(let m): .state(anchor: m.anchor, radius: m.radius, armed: m.armed)
        case .boot(let after): .boot(after: after)
        case .shutdown: .shutdown
        case .mark(let anchor, _): .mark(anchor)
        case .release: .release
        case .radius(let m): .radius(m)
        case .arm: .arm
        case .disarm: .disarm
        case .alarmStart(let e): .alarmStart(episode: e)
        case .snooze(let e, let length): .snooze(episode: e, length: length)
        case .alarmStop(let e): .alarmStop(episode: e)
        case .verdict(let from, let to, let reason): .verdict(from: from, to: to, reason: reason)
        case .faultRaised(let f): .faultRaised(f)
        case .faultCleared(let k): .faultCleared(k)
        case .trackFix(let fix): .fix(position: fix.position, accuracy: fix.accuracy, distance: fix.distance)
        }
    }
}
