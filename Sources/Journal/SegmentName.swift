/// `journal-<16 hex digits>.log`: the sequence orders segments; other names are not ours.
enum SegmentName {
    static func name(_ sequence: UInt64) -> String {
        let hex = String(sequence, radix: 16)
        return JournalConstants.segmentPrefix
            + String(repeating: "0", count: max(0, JournalConstants.sequenceDigits - hex.count)) + hex
            + JournalConstants.segmentSuffix
    }

    static func sequence(_ name: String) -> UInt64? {
        guard name.hasPrefix(JournalConstants.segmentPrefix), name.hasSuffix(JournalConstants.segmentSuffix) else {
            return nil
        }
        let hex = name.dropFirst(JournalConstants.segmentPrefix.count).dropLast(JournalConstants.segmentSuffix.count)
        guard hex.count == JournalConstants.sequenceDigits,
            hex.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) })
        else { return nil }
        return UInt64(hex, radix: 16)
    }
}
