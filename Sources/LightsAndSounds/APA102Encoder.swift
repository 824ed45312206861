/// APA102 (and SK9822) pixels: clock and data lines, so any SPI clock works; the datasheet
/// allows far more than the 4 MHz default, which long rings and cheap wiring tolerate.
///
/// Frame: a start frame of 32 zero bits; per pixel `111` plus 5 bits of global brightness, then
/// the colour bytes (BGR on the genuine chip); then an end frame. Each pixel delays the data by
/// half a clock, so the last pixel needs N/2 more clock edges after its bits: ceil(N/16) bytes,
/// after four zero bytes that SK9822 clones need to latch. Zeros, not ones: ones after the last
/// pixel could be taken as a pixel frame by a longer ring than configured.
public struct APA102Encoder: PixelEncoder, Hashable {
    public static let defaultClockHz = 4_000_000

    public var order: ColourOrder
    /// 0...31: the chip's own current limit. Kept at 31 by default: brightness is done in the
    /// colour values, where the gamma table is.
    public var globalBrightness: UInt8
    public var clockHz: Int

    public init(order: ColourOrder = .bgr, globalBrightness: UInt8 = 31, clockHz: Int = APA102Encoder.defaultClockHz) {
        self.order = order
        self.globalBrightness = min(31, globalBrightness)
        self.clockHz = clockHz
    }

    public static func endFrameBytes(pixels: Int) -> Int { 4 + (pixels + 15) / 16 }

    public func encode(_ pixels: [RGB]) -> [UInt8] {
        var out: [UInt8] = [0, 0, 0, 0]
        out.reserveCapacity(4 + pixels.count * 4 + Self.endFrameBytes(pixels: pixels.count))
        for p in pixels {
            let (a, b, c) = order.bytes(p)
            out.append(0b1110_0000 | globalBrightness)
            out.append(a)
            out.append(b)
            out.append(c)
        }
        out.append(contentsOf: repeatElement(0, count: Self.endFrameBytes(pixels: pixels.count)))
        return out
    }
}
