/// Little-endian encoding of payload fields (Docs/journal-format.md, "Field encodings").
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { integer(v) }
    mutating func u32(_ v: UInt32) { integer(v) }
    mutating func u64(_ v: UInt64) { integer(v) }
    mutating func i16(_ v: Int16) { integer(UInt16(bitPattern: v)) }
    mutating func i32(_ v: Int32) { integer(UInt32(bitPattern: v)) }
    mutating func i64(_ v: Int64) { integer(UInt64(bitPattern: v)) }
    mutating func f64(_ v: Double) { integer(v.bitPattern) }
    mutating func f32(_ v: Float) { integer(v.bitPattern) }

    /// UInt16 byte count, then UTF-8 cut to `JournalConstants.maxTextBytes` at a character boundary.
    mutating func text(_ s: String) {
        var utf8 = Array(s.utf8)
        if utf8.count > JournalConstants.maxTextBytes {
            var end = JournalConstants.maxTextBytes
            // Back off over continuation bytes (10xxxxxx) so the cut never splits a character.
            while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
            utf8.removeSubrange(end...)
        }
        u16(UInt16(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Least significant byte first, a byte at a time: cheaper than appending the value's raw
    /// bytes as a collection (measured: about half of a track fix's payload).
    private mutating func integer<T: FixedWidthInteger & UnsignedInteger>(_ v: T) {
        var x = v
        for _ in 0..<MemoryLayout<T>.size {
            bytes.append(UInt8(truncatingIfNeeded: x))
            x >>= 8
        }
    }
}
