#if canImport(Glibc)
import Glibc
#endif
@testable import WatchCore
import XCTest

/// The core's own trigonometry (it imports no C library) against the C library's.
final class TrigTests: XCTestCase {
    func testSinCosMatchTheCLibrary() {
        var worst = 0.0
        var x = -720.0
        while x <= 720 {
            worst = max(worst, abs(sinDeg(x) - sin(x * .pi / 180)), abs(cosDeg(x) - cos(x * .pi / 180)))
            x += 0.37
        }
        XCTAssertLessThan(worst, 1e-14)
    }

    func testAtan2MatchesTheCLibraryInEveryQuadrant() {
        var worst = 0.0
        for y in stride(from: -3.0, through: 3, by: 0.113) {
            for x in stride(from: -3.0, through: 3, by: 0.127) {
                worst = max(worst, abs(atan2Rad(y, x) - atan2(y, x)))
            }
        }
        XCTAssertLessThan(worst, 1e-14)
        XCTAssertEqual(atan2Rad(0, 0), 0)
        XCTAssertEqual(atan2Rad(1, 0), .pi / 2, accuracy: 1e-15)
        XCTAssertEqual(atan2Rad(0, -1), .pi, accuracy: 1e-15)
    }

    func testExpMatchesTheCLibrary() {
        var worst = 0.0
        for x in stride(from: -60.0, through: 5, by: 0.0731) {
            worst = max(worst, abs(expCore(x) - exp(x)) / exp(x))
        }
        XCTAssertLessThan(worst, 1e-14)
        XCTAssertEqual(expCore(0), 1)
        XCTAssertEqual(expCore(-1000), 0)
    }
}
