import LightsAndSounds

// The encoders' inverses: what the golden and SPI tests read a frame back with. The box only
// encodes, so these live with the tests.

/// A frame that does not decode: the decoders exist for tests, so they say exactly where.
public struct PixelDecodeError: Error, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension WS2812Encoder {
    /// Reads one encoded frame back into colours: every triple of SPI bits must be `110` or
    /// `100`, and the reset gap must follow.
    public func decode(_ bytes: [UInt8]) throws -> [RGB] {
        let body = bytes.count - resetBytes
        guard body >= 0, body % Self.bytesPerPixel == 0 else {
            throw PixelDecodeError("\(bytes.count) bytes is not whole pixels plus a \(resetBytes)-byte reset gap")
        }
        guard bytes[body...].allSatisfy({ $0 == 0 }) else { throw PixelDecodeError("reset gap is not all zero") }
        var pixels: [RGB] = []
        var i = 0
        while i < body {
            var colour: [UInt8] = []
            for _ in 0..<3 {
                let w = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                var value: UInt8 = 0
                for bit in (0..<8).reversed() {
                    switch (w >> (UInt32(bit) * 3)) & 0b111 {
                    case 0b110: value = value << 1 | 1
                    case 0b100: value = value << 1
                    case let other: throw PixelDecodeError("byte \(i): SPI bits \(String(other, radix: 2)) are no WS2812 bit")
                    }
                }
                colour.append(value)
                i += 3
            }
            pixels.append(order.colour(colour[0], colour[1], colour[2]))
        }
        return pixels
    }
}

extension APA102Encoder {
    /// Reads one encoded frame of `count` pixels back: colours and each pixel's brightness.
    public func decode(_ bytes: [UInt8], count: Int) throws -> (pixels: [RGB], brightness: [UInt8]) {
        let expected = 4 + 4 * count + Self.endFrameBytes(pixels: count)
        guard bytes.count == expected else { throw PixelDecodeError("\(bytes.count) bytes, expected \(expected) for \(count) pixels") }
        guard bytes[0..<4].allSatisfy({ $0 == 0 }) else { throw PixelDecodeError("start frame is not 32 zero bits") }
        var pixels: [RGB] = []
        var levels: [UInt8] = []
        for k in 0..<count {
            let i = 4 + 4 * k
            guard bytes[i] & 0b1110_0000 == 0b1110_0000 else {
                throw PixelDecodeError("pixel \(k): header byte \(bytes[i]) lacks the 111 marker")
            }
            levels.append(bytes[i] & 0b1_1111)
            pixels.append(order.colour(bytes[i + 1], bytes[i + 2], bytes[i + 3]))
        }
        guard bytes[(4 + 4 * count)...].allSatisfy({ $0 == 0 }) else { throw PixelDecodeError("end frame is not zero") }
        return (pixels, levels)
    }
}

extension ColourOrder {
    /// The colour from its three wire bytes (the inverse of `bytes`).
    public func colour(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> RGB {
        switch self {
        case .rgb: RGB(a, b, c)
        case .rbg: RGB(a, c, b)
        case .grb: RGB(b, a, c)
        case .gbr: RGB(c, a, b)
        case .brg: RGB(b, c, a)
        case .bgr: RGB(c, b, a)
        }
    }
}
