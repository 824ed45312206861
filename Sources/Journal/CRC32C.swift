/// CRC-32C (Castagnoli), the checksum of every journal record: reflected polynomial 0x82F63B78,
/// initial value and final xor 0xFFFFFFFF. Table-driven, one byte at a time: a Pi writes a few
/// kilobytes an hour, so slicing-by-8 would buy nothing worth its code.
public enum CRC32C {
    static let table: [UInt32] = (0..<256).map { i -> UInt32 in
        var c = UInt32(i)
        for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
        return c
    }

    /// The checksum of `bytes`.
    public static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        finish(update(start, bytes))
    }

    /// Incremental form: `finish(update(update(start, a), b)) == checksum(a + b)`.
    public static let start: UInt32 = 0xFFFF_FFFF

    public static func update<C: Collection>(_ state: UInt32, _ bytes: C) -> UInt32 where C.Element == UInt8 {
        var c = state
        table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        return c
    }

    public static func finish(_ state: UInt32) -> UInt32 { state ^ 0xFFFF_FFFF }
}
