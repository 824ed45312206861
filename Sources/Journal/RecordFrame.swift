import WatchCore

/// The 8-byte header around every payload (Docs/journal-format.md, "Record layout").
public enum RecordFrame {
    /// Header and payload, ready to append.
    public static func encode(type: UInt8, payload: [UInt8]) -> [UInt8] {
        precondition(type != 0, "type 0 is reserved")
        precondition(payload.count <= JournalConstants.maxPayload, "payload over the format's limit")
        // One allocation of the whole record (a header array grown to take the payload was two,
        // on every track fix while it matters).
        let h = JournalConstants.headerSize
        return [UInt8](unsafeUninitializedCapacity: h + payload.count) { out, count in
            out[4] = UInt8(payload.count & 0xFF)
            out[5] = UInt8(payload.count >> 8)
            out[6] = type
            out[7] = headerCheck(out[4], out[5], out[6])
            _ = UnsafeMutableBufferPointer(rebasing: out[h...]).initialize(from: payload)
            let crc = CRC32C.checksum(UnsafeBufferPointer(rebasing: out[4..<(h + payload.count)]))
            for i in 0..<4 { out[i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
            count = h + payload.count
        }
    }

    static func headerCheck(_ l0: UInt8, _ l1: UInt8, _ type: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: CRC32C.checksum([l0, l1, type]))
    }

    /// The whole record starting at `p`, if there is one: its type and payload range.
    /// A length is used only once the record's checksum agrees.
    static func whole(in bytes: [UInt8], at p: Int) -> (type: UInt8, payload: Range<Int>)? {
        let n = bytes.count
        guard n - p >= JournalConstants.headerSize else { return nil }
        let type = bytes[p + 6]
        guard type != 0, bytes[p + 7] == headerCheck(bytes[p + 4], bytes[p + 5], type) else { return nil }
        let length = Int(bytes[p + 4]) | Int(bytes[p + 5]) << 8
        guard length <= JournalConstants.maxPayload, p + JournalConstants.headerSize + length <= n else { return nil }
        let end = p + JournalConstants.headerSize + length
        var stored: UInt32 = 0
        for i in 0..<4 { stored |= UInt32(bytes[p + i]) << (8 * UInt32(i)) }
        guard CRC32C.checksum(bytes[(p + 4)..<end]) == stored else { return nil }
        return (type, (p + JournalConstants.headerSize)..<end)
    }
}

extension Journal {
    /// One record framed for the journal's files.
    static func frame(_ record: JournalRecord, at stamp: Stamp) -> [UInt8] {
        RecordFrame.encode(type: record.type.rawValue, payload: record.payload(at: stamp))
    }
}
