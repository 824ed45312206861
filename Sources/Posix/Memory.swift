import Glibc

/// The C library's fast byte search, for parsers on the path from a fix to the buzzer.
public enum Memory {
    /// The offset of the first `byte` in `buffer`, or nil (memchr).
    @inline(__always)
    public static func firstIndex(of byte: UInt8, in buffer: UnsafeRawBufferPointer) -> Int? {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
        return memchr(base, Int32(byte), buffer.count).map { UnsafeRawPointer($0) - base }
    }
}

/// Elementary functions of libm, for the simulations and benchmarks (WatchCore has its own
/// trigonometry, standard library only).
public enum Math {
    @inlinable public static func sin(_ x: Double) -> Double { Glibc.sin(x) }
    @inlinable public static func cos(_ x: Double) -> Double { Glibc.cos(x) }
    @inlinable public static func atan2(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
    @inlinable public static func exp(_ x: Double) -> Double { Glibc.exp(x) }
    @inlinable public static func log(_ x: Double) -> Double { Glibc.log(x) }
}
