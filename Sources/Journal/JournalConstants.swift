import WatchCore

/// Every number of the journal format and its default limits, in one place. The reasons are in
/// Docs/journal-format.md; a change here changes the format or the card's wear: update both.
public enum JournalConstants {
    /// Format version written in every segment record. Readers read any version: unknown types
    /// are skipped and unknown trailing fields ignored.
    /// 2: a clean stop writes a shutdown record and a boot record says how the run before it
    /// ended (a journal of version 1 says neither, so its restarts are "not known").
    /// 3: a segment carries the farthest distance from the mark after its snapshot (type 17),
    /// and a fix that sets a new farthest is never thinned out of the track.
    /// 4: swing records (type 18), what the swing had learnt about the anchor.
    /// 5: a swing record may end with the receiver's wander measured about the anchor.
    /// 6: ...and after it, the receiver's quick excursions' reach and longest outing.
    public static let formatVersion: UInt16 = 6
    /// A swing record holds at most this many cells (the most recently visited): with its
    /// other fields it stays within `maxPayload`.
    public static let maxSwingCells = 480
    /// ...and at most this many settled centres.
    public static let maxSwingCentres = 16

    /// crc u32, length u16, type u8, check u8.
    public static let headerSize = 8
    /// Bounds what a damaged length can make a reader trust or scan.
    public static let maxPayload = 4096
    /// Monotonic and wall nanoseconds, first in every payload.
    public static let stampSize = 16
    /// Fault messages are cut (at a character boundary) to this many UTF-8 bytes.
    public static let maxTextBytes = 1024

    public static let segmentPrefix = "journal-"
    public static let segmentSuffix = ".log"
    /// Hex digits of the sequence in a segment's name.
    public static let sequenceDigits = 16

    // Defaults of `JournalLimits`, sized for a small SD card.
    public static let defaultSegmentBytes = 1 << 20
    /// Recovery reads at most this much of a segment: the largest segment_bytes the
    /// configuration allows (64 MiB) and a commit's worth more. A bigger file is no segment
    /// the box wrote; its first part is read and it is never truncated.
    public static let maxSegmentRead = (64 << 20) + (1 << 20)
    public static let defaultTotalBytes = 32 << 20
    public static let defaultMinFreeBytes: Int64 = 8 << 20
    public static let defaultCalmTrackInterval: Duration = .seconds(10)
    public static let defaultCalmFlushAge: Duration = .seconds(300)
    public static let defaultAttentionFlushAge: Duration = .seconds(10)
    public static let defaultBatchBytes = 4096
    public static let defaultRetryInterval: Duration = .seconds(30)
    /// Unsaved batched records kept in memory while the journal is failed; the oldest go first.
    public static let maxPendingBytes = 64 * 1024

    /// Where the journal lives on the box.
    public static let defaultDirectory = "/var/lib/anchor-alert"
}

/// Record type codes (the `type` byte). Codes are never reused; 0 is reserved.
public enum RecordType: UInt8, CaseIterable, Sendable {
    case segment = 1
    case snapshot = 2
    case boot = 3
    case mark = 4
    case release = 5
    case radius = 6
    case arm = 7
    case disarm = 8
    case alarmStart = 9
    case snooze = 10
    case alarmStop = 11
    case verdict = 12
    case faultRaised = 13
    case faultCleared = 14
    case trackFix = 15
    /// A clean stop (SIGTERM): the last record of a run that shut down. Its absence before the
    /// next boot is how a power cut or crash shows.
    case shutdown = 16
    /// The farthest distance from the mark so far, after the snapshot of a segment that starts
    /// with an anchor marked and a distance known: the track before it may be deleted.
    case farthest = 17
    /// What the swing had learnt about the anchor: written as it learns (batched), after a mark
    /// that keeps it (with the mark), and after the snapshot of a segment that starts with an
    /// anchor marked and a swing learnt.
    case swing = 18

    /// Types 1...11 change what a restart restores, or mark the journal's own structure: they are
    /// synced before anything is confirmed. The rest ride the batch.
    public var isDurableAtOnce: Bool { rawValue <= RecordType.alarmStop.rawValue }

    /// A fault raised or cleared confirms nothing, but the recap must show it now, not at the
    /// next batch flush: it syncs the batch at once, at most once per attention flush age (a
    /// flapping fault must not wear the card).
    public var flushesPromptly: Bool { self == .faultRaised || self == .faultCleared }
}

/// The on-disk codes of WatchCore's enums. Exhaustive switches: a new case in WatchCore fails to
/// compile here until it has a code.
enum WireCode {
    static func code(_ kind: PositionVerdict.Kind) -> UInt8 {
        switch kind {
        case .noAnchor: 1
        case .holding: 2
        case .checking: 3
        case .dragging: 4
        case .cantJudge: 5
        }
    }

    static func verdictKind(_ code: UInt8) -> PositionVerdict.Kind? {
        PositionVerdict.Kind.allCases.first { Self.code($0) == code }
    }

    static func code(_ reason: CantJudgeReason) -> UInt8 {
        switch reason {
        case .noReading: 1
        case .noFix: 2
        case .stale: 3
        case .poorAccuracy: 4
        case .implausible: 5
        case .tooFewReadings: 6
        }
    }

    static func cantJudgeReason(_ code: UInt8) -> CantJudgeReason? {
        CantJudgeReason.allCases.first { Self.code($0) == code }
    }

    static func code(_ kind: FaultKind) -> UInt8 {
        switch kind {
        case .gpsLost: 1
        case .gpsd: 2
        case .receiver: 3
        case .buzzer: 4
        case .armSwitch: 5
        case .button: 6
        case .ledRing: 7
        case .siren: 8
        case .journal: 9
        case .config: 10
        case .power: 11
        case .clock: 12
        case .watchdog: 13
        }
    }

    static func faultKind(_ code: UInt8) -> FaultKind? {
        FaultKind.allCases.first { Self.code($0) == code }
    }
}
