import LightsAndSounds
import XCTest

final class GammaTests: XCTestCase {
    func testSRGBTransferFunction() {
        XCTAssertEqual(Gamma.linear[0], 0)
        XCTAssertEqual(Gamma.linear[255], 1, accuracy: 1e-12)
        // Reference values of the sRGB EOTF (IEC 61966-2-1).
        XCTAssertEqual(Gamma.linear[128], 0.215_860_5, accuracy: 1e-7)
        XCTAssertEqual(Gamma.linear[10], 10.0 / 255 / 12.92, accuracy: 1e-12)
        XCTAssertEqual(Gamma.linear[200], 0.577_580_44, accuracy: 1e-8)
        for i in 1..<256 { XCTAssertGreaterThan(Gamma.linear[i], Gamma.linear[i - 1]) }
    }

    func testDriveLevelsOfThePalette() {
        // Holding green at the working brightness 0.25, worked out from the EOTF by hand.
        XCTAssertEqual(Gamma.drive(PaletteRole.holding.sRGB, brightness: 0.25), RGB(1, 13, 7))
        XCTAssertEqual(Gamma.drive(PaletteRole.danger.sRGB, brightness: 1), RGB(91, 5, 3))
        XCTAssertEqual(Gamma.drive(RGB(255, 255, 255), brightness: 2), RGB(255, 255, 255))
        // Every role keeps a colour (not black) at the default night glow.
        for role in PaletteRole.allCases {
            XCTAssertNotEqual(Gamma.drive(role.sRGB, brightness: RingSettings().nightBrightness), .black, "\(role)")
        }
    }

    func testDisplayInvertsTheTable() {
        for s in 0...255 {
            let drive = UInt8((Gamma.linear[s] * 255).rounded())
            let back = Gamma.display(drive)
            XCTAssertEqual(Gamma.drive(back, brightness: 1), drive, "sRGB \(s)")
        }
        XCTAssertEqual(Gamma.display(255), 255)
        XCTAssertEqual(Gamma.display(0), 0)
    }

    func testPaletteHex() {
        XCTAssertEqual(PaletteRole.holding.hex, "#1C7B5A")
        XCTAssertEqual(PaletteRole.attention.hex, "#F5A524")
        XCTAssertEqual(PaletteRole.danger.hex, "#A1281B")
        XCTAssertEqual(PaletteRole.neutral.hex, "#5B9BD5")
    }

    func testSine() {
        for i in 0..<1000 {
            let t = Double(i) / 997 - 0.3
            XCTAssertEqual(sineTurns(t), sineTurns(t + 3), accuracy: 1e-9)
            XCTAssertEqual(sineTurns(t) * sineTurns(t) + sineTurns(t + 0.25) * sineTurns(t + 0.25), 1, accuracy: 1e-9)
        }
        XCTAssertEqual(sineTurns(0.25), 1, accuracy: 1e-12)
        XCTAssertEqual(sineTurns(0.75), -1, accuracy: 1e-12)
        XCTAssertEqual(sineTurns(1.0 / 12), 0.5, accuracy: 1e-12)
        XCTAssertEqual(sineTurns(-1.0 / 12), -0.5, accuracy: 1e-12)
        XCTAssertEqual(sineTurns(0.5 + 1.0 / 8), -0.5.squareRoot(), accuracy: 1e-12)
    }
}
