/// WS2812-class pixels (WS2812B, SK6812 RGB) driven from SPI's MOSI line alone, so it works on
/// every Pi including the Pi 5 (no PWM or DMA tricks).
///
/// Each data bit becomes three SPI bits at 2.4 MHz (417 ns each): a 1 is `110` (high 833 ns,
/// low 417 ns), a 0 is `100` (high 417 ns, low 833 ns), 1.25 us a bit. The WS2812B datasheet
/// asks T0H 0.4 us, T1H 0.8 us, each +-150 ns, and a 1.25 us +-600 ns period: three bits per bit
/// stay in spec from 2.1 MHz (T1H 0.95 us) to 3.08 MHz (T1H 0.65 us), so `clockRange` allows
/// 2.1 to 3.0 MHz. Bytes go out most significant bit first, the chip's order.
///
/// After the last pixel MOSI stays low for the reset gap so the chips latch: the original
/// WS2812 needs 50 us, WS2812B revisions since 2017 need 280 us; 300 us covers both. On a Pi the
/// SPI clock derives from the core clock: fix `core_freq` (see Docs/ring.md) or the bit timing
/// drifts with CPU scaling.
public struct WS2812Encoder: PixelEncoder, Hashable {
    public static let defaultClockHz = 2_400_000
    public static let clockRange = 2_100_000...3_000_000
    public static let resetGap: Duration = .microseconds(300)
    /// SPI bits per data bit, and SPI bytes per pixel (3 colour bytes of 8 bits, 3 SPI bits each).
    public static let spiBitsPerBit = 3
    public static let bytesPerPixel = 9

    public var order: ColourOrder
    public var clockHz: Int

    public init(order: ColourOrder = .grb, clockHz: Int = WS2812Encoder.defaultClockHz) {
        self.order = order
        self.clockHz = clockHz
    }

    /// Zero bytes after the frame: the reset gap at this clock, rounded up to whole bytes.
    public var resetBytes: Int {
        let bits = (Self.resetGap.nanoseconds * Int64(clockHz) + 999_999_999) / 1_000_000_000
        return Int((bits + 7) / 8)
    }

    /// Each colour byte as 24 SPI bits (in the low bits), by table.
    static let expand: [UInt32] = (0...255).map { (byte: Int) -> UInt32 in
        var word: UInt32 = 0
        for bit in (0..<8).reversed() {
            word = (word << 3) | ((byte >> bit) & 1 == 1 ? 0b110 : 0b100)
        }
        return word
    }

    public func encode(_ pixels: [RGB]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(pixels.count * Self.bytesPerPixel + resetBytes)
        for p in pixels {
            let (a, b, c) = order.bytes(p)
            for byte in [a, b, c] {
                let w = Self.expand[Int(byte)]
                out.append(UInt8(truncatingIfNeeded: w >> 16))
                out.append(UInt8(truncatingIfNeeded: w >> 8))
                out.append(UInt8(truncatingIfNeeded: w))
            }
        }
        out.append(contentsOf: repeatElement(0, count: resetBytes))
        return out
    }
}
