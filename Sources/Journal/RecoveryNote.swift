import WatchCore

/// Something recovery found and did, in the product's words. Reported, never a reason to refuse.
public enum RecoveryNote: Hashable, Sendable, CustomStringConvertible {
    /// A record cut short by a crash while writing: cut off.
    case tornTail(segment: String, offset: Int, bytes: Int)
    /// Zero bytes where the file system extended the file without its data: cut off.
    case zeroedTail(segment: String, offset: Int, bytes: Int)
    /// Damaged bytes in the middle of a segment; reading went on after them.
    case bytesLost(segment: String, offset: Int, bytes: Int)
    case unknownType(segment: String, offset: Int, type: UInt8)
    case malformed(segment: String, offset: Int, type: RecordType)
    case unreadableSegment(segment: String, error: FileSystemError)
    /// Larger than any segment the box writes: only its first `read` bytes were read, and it
    /// was left as it is.
    case oversized(segment: String, bytes: Int, read: Int)
    /// No journal at all (a new box, or a wiped card).
    case missing
    /// Segments exist but none could be read: the memory is lost.
    case unreadable
    /// A cut tail could not be truncated: it will be reported again next start.
    case notTruncated(segment: String, error: FileSystemError)
    /// The journal could not start a segment: the box watches from memory.
    case notWritable(JournalFailure)

    public var description: String {
        switch self {
        case .tornTail(let s, let o, let n): "Journal: power cut while writing, \(n) bytes cut off at \(s) offset \(o)"
        case .zeroedTail(let s, let o, let n): "Journal: \(n) empty bytes cut off at \(s) offset \(o)"
        case .bytesLost(let s, let o, let n): "Journal: \(n) bytes lost to a bad checksum at \(s) offset \(o)"
        case .unknownType(let s, let o, let t): "Journal: skipped a record of unknown type \(t) at \(s) offset \(o)"
        case .malformed(let s, let o, let t): "Journal: skipped a damaged \(t) record at \(s) offset \(o)"
        case .unreadableSegment(let s, let e): "Journal: can't read \(s), \(e)"
        case .oversized(let s, let n, let r): "Journal: \(s) is \(n) bytes, larger than any segment the box writes; read its first \(r) bytes"
        case .missing: "Journal: none found, started a new one"
        case .unreadable: "Journal: can't read the old journal, started a new one"
        case .notTruncated(let s, let e): "Journal: can't cut the damaged end of \(s), \(e)"
        case .notWritable(let f): f.message
        }
    }

    /// Whether this note raises the journal fault (the rest are for the log and the recap).
    /// Torn and zeroed tails are what a power cut leaves: expected, not a fault; nor is a first
    /// start's empty directory.
    public var isFault: Bool {
        switch self {
        case .tornTail, .zeroedTail, .unknownType: false
        // A new box (or a new card) has no journal: a new one is not a failing one.
        case .missing: false
        case .bytesLost, .malformed, .unreadableSegment, .oversized, .unreadable, .notTruncated, .notWritable: true
        }
    }

    /// Whether the fault should sound: the box lost something it had, or can't save.
    public var pushes: Bool {
        switch self {
        case .unreadable, .notWritable: true
        default: false
        }
    }
}
