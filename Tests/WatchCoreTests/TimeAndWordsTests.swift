import WatchCore
import XCTest

final class TimeAndWordsTests: XCTestCase {
    func testCountdownIsMinutesAndPaddedSeconds() {
        XCTAssertEqual(Words.countdown(.seconds(300)), "5:00")
        XCTAssertEqual(Words.countdown(.seconds(61.2)), "1:02")
        XCTAssertEqual(Words.countdown(.seconds(9)), "0:09")
        XCTAssertEqual(Words.countdown(.seconds(-3)), "0:00")
    }

    func testOnePhrasePerState() {
        XCTAssertEqual(PositionVerdict.Kind.allCases.map(Words.verdict), ["No anchor", "Holding", "Checking", "Dragging", "Can't judge"])
    }

    func testInstantArithmetic() {
        let t = Instant(seconds: 1.5)
        XCTAssertEqual((t + .milliseconds(250)).seconds, 1.75)
        XCTAssertEqual((Instant(seconds: 3) - t).seconds, 1.5)
        XCTAssertEqual(Duration.seconds(2.5).nanoseconds, 2_500_000_000)
    }

    /// `Duration.nanoseconds` divides the 128-bit attoseconds itself: the same value as the
    /// plain way through `components`, either sign, with sub-nanosecond parts, and far out.
    func testNanosecondsAreWhatComponentsSay() {
        var state: UInt64 = 0x1234_5678_9ABC_DEF1
        func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        var cases: [Duration] = [.zero, .nanoseconds(1), .nanoseconds(-1), .seconds(20), .milliseconds(-1),
                                 Duration(secondsComponent: 0, attosecondsComponent: 999_999_999),
                                 Duration(secondsComponent: 0, attosecondsComponent: -999_999_999),
                                 Duration(secondsComponent: Int64.max / 4, attosecondsComponent: 1),
                                 Duration(secondsComponent: Int64.min / 4, attosecondsComponent: -1)]
        for _ in 0..<100_000 {
            let seconds = Int64(bitPattern: next()) >> Int64(next() % 64)
            let atto = Int64(next() % 1_000_000_000_000_000_000)
            cases.append(Duration(secondsComponent: seconds, attosecondsComponent: seconds < 0 ? -atto : atto))
        }
        for d in cases {
            let (s, atto) = d.components
            XCTAssertEqual(d.nanoseconds, s &* 1_000_000_000 &+ atto / 1_000_000_000, "\(d)")
        }
    }

    func testReadingsDropNonFiniteFields() {
        let r = GPSReading(mode: .threeD, position: Coordinate(latitude: 1, longitude: 2), accuracy: Meters(.nan),
                           speed: .infinity, track: .nan, received: .zero)
        XCTAssertNil(r.accuracy)
        XCTAssertNil(r.speed)
        XCTAssertNil(r.track)
        XCTAssertNil(GPSReading(mode: .noFix, position: Coordinate(latitude: 1, longitude: 2), received: .zero).position)
    }

    /// WatchCore's public face is extended, never renamed: code that says `Copy` still builds.
    func testCopyIsStillTheProductsWords() {
        let verdict: (PositionVerdict.Kind) -> String = Copy.verdict
        XCTAssertEqual(verdict(.holding), Words.verdict(.holding))
    }
}
