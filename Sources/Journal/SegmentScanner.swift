/// The recovery rules of Docs/journal-format.md applied to one segment's bytes: whole records in
/// order, damaged stretches skipped and reported, the tail cut.
public enum SegmentScanner {
    public struct Summary: Hashable, Sendable {
        public var notes: [RecoveryNote] = []
        /// The offset after the last whole record, before any cut tail: where the file should end.
        public var validEnd = 0
        /// Whole records of a known, well-formed type.
        public var records = 0
        public var cutTail: Bool { tailBytes > 0 }
        public var tailBytes = 0
        public var lostBytes = 0
    }

    /// Calls `visit` with the offset and record of every good record, in order.
    @discardableResult
    public static func scan(_ bytes: [UInt8], segment: String, _ visit: (Int, StampedRecord) -> Void) -> Summary {
        var summary = Summary()
        var p = 0
        let n = bytes.count
        while p < n {
            if let (type, payload) = RecordFrame.whole(in: bytes, at: p) {
                switch JournalRecord.decode(type: type, payload: bytes[payload]) {
                case .success(let record):
                    summary.records += 1
                    visit(p, record)
                case .failure(.unknownType(let t)):
                    summary.notes.append(.unknownType(segment: segment, offset: p, type: t))
                case .failure(.malformed(let t)):
                    summary.notes.append(.malformed(segment: segment, offset: p, type: t))
                }
                p = payload.upperBound
                summary.validEnd = p
                continue
            }
            // Damaged at p: its length can't be trusted. Find the next whole record, if any.
            var q = p + 1
            while q <= n - JournalConstants.headerSize, RecordFrame.whole(in: bytes, at: q) == nil { q += 1 }
            if q <= n - JournalConstants.headerSize {
                summary.notes.append(.bytesLost(segment: segment, offset: p, bytes: q - p))
                summary.lostBytes += q - p
                p = q
                continue
            }
            let tail = n - p
            summary.tailBytes = tail
            summary.notes.append(bytes[p...].allSatisfy { $0 == 0 }
                ? .zeroedTail(segment: segment, offset: p, bytes: tail)
                : .tornTail(segment: segment, offset: p, bytes: tail))
            break
        }
        return summary
    }
}
