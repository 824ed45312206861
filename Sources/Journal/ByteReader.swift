/// Reads little-endian payload fields; every read is bounds-checked and answers nil past the end,
/// so a malformed payload can never read outside its bytes.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    mutating func u8() -> UInt8? { integer(UInt8.self) }
    mutating func u16() -> UInt16? { integer(UInt16.self) }
    mutating func u32() -> UInt32? { integer(UInt32.self) }
    mutating func u64() -> UInt64? { integer(UInt64.self) }
    mutating func i16() -> Int16? { integer(UInt16.self).map { Int16(bitPattern: $0) } }
    mutating func i32() -> Int32? { integer(UInt32.self).map { Int32(bitPattern: $0) } }
    mutating func i64() -> Int64? { integer(UInt64.self).map { Int64(bitPattern: $0) } }
    mutating func f64() -> Double? { integer(UInt64.self).map { Double(bitPattern: $0) } }
    mutating func f32() -> Float? { integer(UInt32.self).map { Float(bitPattern: $0) } }

    /// nil when the count runs past the end, the count exceeds the limit, or the bytes are not UTF-8.
    mutating func text() -> String? {
        guard let count = u16().map(Int.init), count <= JournalConstants.maxTextBytes,
            position + count <= bytes.endIndex
        else { return nil }
        let slice = bytes[position..<(position + count)]
        position += count
        var out = ""
        var iterator = slice.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): out.unicodeScalars.append(s)
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        return out
    }

    private mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard position + size <= bytes.endIndex else { return nil }
        var v: T = 0
        for i in 0..<size { v |= T(bytes[position + i]) << (8 * i) }
        position += size
        return v
    }
}
