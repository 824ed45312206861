import WatchCore

/// One record of the journal, typed. Docs/journal-format.md gives each case's type code and bytes.
public enum JournalRecord: Hashable, Sendable {
    /// First record of every segment.
    case segment(version: UInt16, sequence: UInt64)
    /// The whole restorable state; second record of every segment.
    case snapshot(WatchMemory)
    /// `after`: how the run before it ended, as the journal found it at open.
    case boot(after: PreviousStop)
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
    /// A clean stop: written and synced last, when the box shuts down.
    case shutdown
    /// The farthest the boat was from the mark when a segment started (after its snapshot).
    case farthest(Meters)
    /// What the swing had learnt (`Action.swingLearnt`); a new segment carries the latest after
    /// its snapshot.
    case swing(SwingEstimator.Memory)

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
        case .shutdown: .shutdown
        case .farthest: .farthest
        case .swing: .swing
        }
    }
}

/// How the run before a boot ended: what the journal found at open (the boot record's field).
public enum PreviousStop: UInt8, Hashable, Sendable, CaseIterable {
    /// A journal of format version 1 (it wrote no shutdown records), or none could be read.
    case unknown = 0
    /// No journal: a first start, or a new card.
    case firstStart = 1
    /// The newest segment ends with a shutdown record: a clean stop.
    case clean = 2
    /// It ends without one: a power cut, a crash, a kill, the watchdog.
    case unclean = 3

    /// Its name in history lines and JSON.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .firstStart: "first_start"
        case .clean: "clean_stop"
        case .unclean: "power_cut_or_crash"
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
