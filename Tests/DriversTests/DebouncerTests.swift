import Drivers
import WatchCore
import XCTest

final class DebouncerTests: XCTestCase {
    func testABounceBurstEndsInOneChangeStampedAtItsLastEdge() {
        var d = Debouncer(settle: .milliseconds(50))
        d.start(level: true)
        var t: Int64 = 1000
        for high in [false, true, false, true, false] {
            d.edge(LineEdge(high: high, at: .ms(t)), now: .ms(t))
            t += 2
        }
        XCTAssertEqual(d.deadline, .ms(1008 + 50))
        XCTAssertNil(d.settled(now: .ms(1057), reading: false), "not yet settled")
        XCTAssertEqual(d.settled(now: .ms(1058), reading: false), LineEdge(high: false, at: .ms(1008)))
        XCTAssertNil(d.deadline)
        XCTAssertEqual(d.stable, false)
    }

    func testAGlitchThatComesBackChangesNothing() {
        var d = Debouncer(settle: .milliseconds(50))
        d.start(level: true)
        d.edge(LineEdge(high: false, at: .ms(10)), now: .ms(10))
        d.edge(LineEdge(high: true, at: .ms(12)), now: .ms(12))
        XCTAssertNil(d.settled(now: .ms(100), reading: true))
        XCTAssertEqual(d.stable, true)
        XCTAssertNil(d.deadline)
    }

    func testAReadingThatDisagreesWithTheLastEdgeWaitsAgain() {
        var d = Debouncer(settle: .milliseconds(50))
        d.start(level: true)
        d.edge(LineEdge(high: false, at: .ms(10)), now: .ms(10))
        XCTAssertNil(d.settled(now: .ms(60), reading: true), "an unread edge: don't trust either")
        XCTAssertEqual(d.deadline, .ms(110))
        XCTAssertNil(d.settled(now: .ms(110), reading: true), "back where it was")
        XCTAssertEqual(d.stable, true)
    }

    func testStampsFromTheFutureOrAnotherClockAreTakenAsNow() {
        var d = Debouncer(settle: .milliseconds(50))
        d.start(level: false)
        d.edge(LineEdge(high: true, at: .ms(99_000_000)), now: .ms(5000))
        XCTAssertEqual(d.deadline, .ms(5050))
        d.edge(LineEdge(high: false, at: .ms(1)), now: .ms(200_000))
        XCTAssertEqual(d.deadline, .ms(200_050))
    }
}
