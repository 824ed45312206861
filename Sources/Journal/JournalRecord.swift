import WatchCore

/// One record of the journal, typed. Docs/journal-format.md gives each case's type code and bytes.
public enum JournalRecord: Hashable, Sendable {
    /// First record of every segment.
    case segment(version: UInt16, sequence: UInt64)
    /// The whole restorable state; second record of every segment.
    case snapshot(WatchMemory)
    case boot
    /// `anchor` is where the anchor was put; `how` is what the skipper asked for.
    case mark(anchor: Coordinate, how: MarkRequest)
    case release
    case radius(Meters)
    case arm
    case disarm
    case alarmStart(episode: Int)
    case snooze(episode: Int, length: Duration)
    /// A snooze ended with the boat holding: the alarm is armed again, not ringing.
    case alarmStop(episode: Int)
    case verdict(from: PositionVerdict.Kind, to: PositionVerdict.Kind, reason: CantJudgeReason?)
    case faultRaised(Fault)
    case faultCleared(FaultKind)
    case trackFix(TrackFix)

    public var type: RecordType {
        switch self {
        case .segment: .segment
        case .snapshot: .snapshot
        case .boot: .boot
        case .mark: .mark
        case .release: .release
        case .radius: .radius
        case .arm: .arm
        case .disarm: .disarm
        case .alarmStart: .alarmStart
        case .snooze: .snooze
        case .alarmStop: .alarmStop
        case .verdict: .verdict
        case .faultRaised: .faultRaised
        case .faultCleared: .faultCleared
        case .trackFix: .trackFix
        }
    }
}

/// A fix of the decimated track. Stored to 1e-7 degrees (about 1 cm), which is finer than any
/// GPS reading a boat gets.
public struct TrackFix: Hashable, Sendable {
    public var position: Coordinate
    public var accuracy: Meters?
    /// From the anchor, when one was marked.
    public var distance: Meters?

    public init(position: Coordinate, accuracy: Meters?, distance: Meters?) {
        self.position = position
        self.accuracy = accuracy
        self.distance = distance
    }
}

/// A record with its stamp, as read back.
public struct StampedRecord: Hashable, Sendable {
    public var stamp: Stamp
    public var record: JournalRecord

    public init(_ record: JournalRecord, at stamp: Stamp) {
        self.stamp = stamp
        self.record = record
    }
}
