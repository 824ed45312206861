@testable import Appliance
import WatchCore
import XCTest

/// What `--since`, `--from` and `--to` accept (`WallTime.parse`).
final class WallTimeWordsTests: XCTestCase {
    let now = WallTime(seconds: 1_800_000_000)

    func testAClockTimeIsTheMostRecentSuchTime() throws {
        let t = try XCTUnwrap(WallTime.parse("03:12", now: now))
        XCTAssertEqual(t.clock, "03:12")
        XCTAssertLessThanOrEqual(t, now)
        XCTAssertGreaterThan(t, now - .seconds(86_400))
        XCTAssertEqual(try XCTUnwrap(WallTime.parse("03:12:09", now: now)).clockSeconds, "03:12:09")
    }

    func testADateWithTimeParses() throws {
        XCTAssertEqual(try XCTUnwrap(WallTime.parse("2026-11-30 03:12", now: now)).dateAndClock, "2026-11-30 03:12")
        XCTAssertEqual(try XCTUnwrap(WallTime.parse("2026-11-30T03:12:09Z", now: now)).iso8601, "2026-11-30T03:12:09Z")
    }

    /// Two numbers joined by a dash are a month and a day, not a clock time: "11-30" must not
    /// quietly become 11:30 (nor "2026-11" anything at all).
    func testTwoNumbersWithADashAreNotAClockTime() {
        XCTAssertNil(WallTime.parse("11-30", now: now))
        XCTAssertNil(WallTime.parse("03-12", now: now))
        XCTAssertNil(WallTime.parse("11-30-05", now: now))
        XCTAssertNil(WallTime.parse("2026-11", now: now))
    }
}
