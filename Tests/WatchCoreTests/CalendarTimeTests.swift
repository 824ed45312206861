#if canImport(Glibc)
import Glibc
#endif
import WatchCore
import XCTest

/// `CalendarTime`'s UTC arithmetic (`CivilTime`, no C library) agrees with the C library's
/// gmtime_r and timegm, which it replaced: both ways, across leap days, centuries, 1970's
/// either side and the far years a garbage time clamps to.
final class CalendarTimeTests: XCTestCase {
    private func gm(_ seconds: Int) -> CalendarTime {
        var t = time_t(seconds)
        var tm = Glibc.tm()
        gmtime_r(&t, &tm)
        return CalendarTime(year: Int(tm.tm_year) + 1900, month: Int(tm.tm_mon) + 1, day: Int(tm.tm_mday),
                            hour: Int(tm.tm_hour), minute: Int(tm.tm_min), second: Int(tm.tm_sec))
    }

    func testUTCFieldsAreTheCLibrarysBothWays() {
        var seconds: [Int] = [0, -1, 59, 86_399, 86_400, -86_400, -86_401, 951_782_399, 951_782_400, 951_868_800,
                              4_107_542_399, 4_107_542_400, 1_796_151_641, -2_208_988_800, 253_402_300_799]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(Int(Int64(bitPattern: x >> 1) % 8_000_000_000) - 3_000_000_000)
        }
        for s in seconds {
            let fields = CalendarTime(utcSeconds: Double(s))
            XCTAssertEqual(fields, gm(s), "\(s)")
            XCTAssertEqual(fields.utcSeconds, Double(s), "\(s)")
            // A fraction rounds down, as it did through time_t.
            XCTAssertEqual(CalendarTime(utcSeconds: Double(s) + 0.75), fields, "\(s).75")
        }
    }

    /// Fields past their range carry over, as timegm's do (what `--from 2026-02-31` meets).
    func testFieldsPastTheirRangeCarryOverAsTimegmDoes() {
        for fields in [CalendarTime(year: 2026, month: 2, day: 31, hour: 0, minute: 0, second: 0),
                       CalendarTime(year: 2024, month: 2, day: 30, hour: 23, minute: 59, second: 60),
                       CalendarTime(year: 2026, month: 12, day: 31, hour: 24, minute: 0, second: 0),
                       CalendarTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59)] {
            var tm = Glibc.tm()
            tm.tm_year = Int32(fields.year - 1900)
            tm.tm_mon = Int32(fields.month - 1)
            tm.tm_mday = Int32(fields.day)
            tm.tm_hour = Int32(fields.hour)
            tm.tm_min = Int32(fields.minute)
            tm.tm_sec = Int32(fields.second)
            XCTAssertEqual(fields.utcSeconds, Double(timegm(&tm)), "\(fields)")
        }
    }
}
