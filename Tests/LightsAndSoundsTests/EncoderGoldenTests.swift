import LightsAndSounds
import LightsAndSoundsTestSupport
import XCTest

/// Byte-exact frames, worked out by hand from the datasheets (see each encoder's comment).
final class EncoderGoldenTests: XCTestCase {
    func testWS2812OnePixelGRBAt2_4MHz() {
        let bytes = WS2812Encoder(order: .grb).encode([RGB(0xFF, 0x00, 0x81)])
        // G = 0x00: eight 0 bits, each 100 -> 100100100100100100100100
        // R = 0xFF: eight 1 bits, each 110 -> 110110110110110110110110
        // B = 0x81: 1,0,0,0,0,0,0,1        -> 110100100100100100100110
        let body: [UInt8] = [0x92, 0x49, 0x24, 0xDB, 0x6D, 0xB6, 0xD2, 0x49, 0x26]
        // 300 us at 2.4 MHz = 720 bits = 90 zero bytes.
        XCTAssertEqual(bytes, body + Array(repeating: 0, count: 90))
    }

    func testWS2812ColourOrderAndClockChangeTheFrame() {
        let rgb = WS2812Encoder(order: .rgb).encode([RGB(0xFF, 0x00, 0x81)])
        XCTAssertEqual(Array(rgb.prefix(9)), [0xDB, 0x6D, 0xB6, 0x92, 0x49, 0x24, 0xD2, 0x49, 0x26])
        // At 3 MHz the 300 us gap is 900 bits: 113 bytes, rounded up.
        XCTAssertEqual(WS2812Encoder(order: .grb, clockHz: 3_000_000).resetBytes, 113)
    }

    func testWS2812DecodesWhatItEncodesAndRejectsNoise() throws {
        let enc = WS2812Encoder(order: .grb)
        let pixels: [RGB] = (0..<24).map { (i: Int) -> RGB in RGB(UInt8(i * 10), UInt8(255 - i), UInt8(i * 3)) }
        XCTAssertEqual(try enc.decode(enc.encode(pixels)), pixels)
        var broken = enc.encode(pixels)
        broken[4] = 0xFF  // 111 is no WS2812 bit
        XCTAssertThrowsError(try enc.decode(broken))
        XCTAssertThrowsError(try enc.decode(Array(enc.encode(pixels).dropLast())))
    }

    func testAPA102TwoPixelsBGR() {
        let bytes = APA102Encoder(order: .bgr).encode([RGB(1, 2, 3), RGB(255, 128, 0)])
        XCTAssertEqual(bytes, [
            0, 0, 0, 0,  // start frame
            0xFF, 3, 2, 1,  // 111 + brightness 31, then B G R
            0xFF, 0, 128, 255,
            0, 0, 0, 0, 0,  // 4 latch bytes + ceil(2/16) = 1 byte of clock edges
        ])
    }

    func testAPA102GlobalBrightnessAndEndFrameLength() throws {
        let enc = APA102Encoder(order: .rgb, globalBrightness: 7)
        let pixels = Array(repeating: RGB(9, 8, 7), count: 40)
        let bytes = enc.encode(pixels)
        XCTAssertEqual(bytes[4], 0xE7)
        XCTAssertEqual(Array(bytes[5...7]), [9, 8, 7])
        // 40 pixels delay the data by 20 clock edges: 3 bytes, after the 4 latch bytes.
        XCTAssertEqual(bytes.count, 4 + 160 + 4 + 3)
        let decoded = try enc.decode(bytes, count: 40)
        XCTAssertEqual(decoded.pixels, pixels)
        XCTAssertEqual(decoded.brightness, Array(repeating: 7, count: 40))
        XCTAssertEqual(APA102Encoder(globalBrightness: 99).globalBrightness, 31)
    }

    func testColourOrderParsingAndRoundTrip() {
        XCTAssertEqual(ColourOrder(parsing: "GRB"), .grb)
        XCTAssertEqual(ColourOrder(parsing: "bgr"), .bgr)
        XCTAssertNil(ColourOrder(parsing: "rgbw"))
        XCTAssertNil(ColourOrder(parsing: ""))
        XCTAssertEqual(PixelType(parsing: "APA102"), .apa102)
        XCTAssertNil(PixelType(parsing: "neopixel"))
        let c = RGB(10, 20, 30)
        for order in ColourOrder.allCases {
            let (a, b, d) = order.bytes(c)
            XCTAssertEqual(order.colour(a, b, d), c, "\(order)")
        }
        XCTAssertEqual(Set(ColourOrder.allCases.map { "\($0.bytes(c))" }).count, 6)
    }
}
