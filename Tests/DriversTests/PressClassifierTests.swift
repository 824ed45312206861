import Drivers
import WatchCore
import XCTest

final class PressClassifierTests: XCTestCase {
    func hold(_ ms: Int64, _ c: inout PressClassifier) -> Press? {
        c.down(at: .ms(1000))
        return c.up(at: .ms(1000 + ms))
    }

    func testDurationsAtTheirThresholds() {
        var c = PressClassifier()
        XCTAssertEqual(hold(80, &c), .short)
        XCTAssertEqual(hold(1499, &c), .short)
        XCTAssertEqual(hold(1500, &c), .long)
        XCTAssertEqual(hold(4999, &c), .long)
        XCTAssertEqual(hold(5000, &c), .veryLong)
        XCTAssertEqual(hold(10_000, &c), .veryLong)
    }

    func testSomethingRestingOnTheButtonNeverMarksOrReleases() {
        var c = PressClassifier()
        XCTAssertEqual(hold(10_001, &c), .short)
        XCTAssertEqual(hold(600_000, &c), .short)
    }

    func testAHoldFromBeforeStartIsNoPress() {
        var c = PressClassifier()
        c.startHeld()
        XCTAssertNil(c.up(at: .ms(3000)))
        XCTAssertEqual(hold(100, &c), .short, "the next press counts")
    }

    func testAnUpWithoutADownIsNoPress() {
        var c = PressClassifier()
        XCTAssertNil(c.up(at: .ms(5)))
    }
}
