import WatchCore
import XCTest

final class TimeAndWordsTests: XCTestCase {
    func testCountdownIsMinutesAndPaddedSeconds() {
        XCTAssertEqual(Copy.countdown(.seconds(300)), "5:00")
        XCTAssertEqual(Copy.countdown(.seconds(61.2)), "1:02")
        XCTAssertEqual(Copy.countdown(.seconds(9)), "0:09")
        XCTAssertEqual(Copy.countdown(.seconds(-3)), "0:00")
    }

    func testOnePhrasePerState() {
        XCTAssertEqual(PositionVerdict.Kind.allCases.map(Copy.verdict), ["No anchor", "Holding", "Checking", "Dragging", "Can't judge"])
    }

    func testInstantArithmetic() {
        let t = Instant(seconds: 1.5)
        XCTAssertEqual((t + .milliseconds(250)).seconds, 1.75)
        XCTAssertEqual((Instant(seconds: 3) - t).seconds, 1.5)
        XCTAssertEqual(Duration.seconds(2.5).nanoseconds, 2_500_000_000)
    }

    func testReadingsDropNonFiniteFields() {
        let r = GPSReading(mode: .threeD, position: Coordinate(latitude: 1, longitude: 2), accuracy: Meters(.nan),
                           speed: .infinity, track: .nan, received: .zero)
        XCTAssertNil(r.accuracy)
        XCTAssertNil(r.speed)
        XCTAssertNil(r.track)
        XCTAssertNil(GPSReading(mode: .noFix, position: Coordinate(latitude: 1, longitude: 2), received: .zero).position)
    }
}
