@testable import Recordings
import XCTest

/// The TPV reader's shortcuts (`GPSDFix.Scanner`) give what the plain way gives: each number the
/// same Double as `Double(String)`, each key literal the packing of its name.
final class TPVScannerTests: XCTestCase {
    private func exact(_ s: String) -> Double? {
        Array(s.utf8).withUnsafeBufferPointer { GPSDFix.Scanner.exactDecimal($0) }
    }

    func testEveryPlainDecimalIsTheSameDoubleAsDoubleOfString() {
        // Fixed seed: latitudes, longitudes and errors as gpsd prints them, and every length.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var checked = 0
        for _ in 0..<200_000 {
            let digits = Int(next() % 15) + 1
            let whole = Int(next() % UInt64(digits)) + 1
            var text = next() % 2 == 0 ? "-" : ""
            for k in 0..<digits {
                if k == whole { text += "." }
                text += String(next() % 10)
            }
            guard let fast = exact(text) else { return XCTFail("\(text) is a plain decimal of \(digits) digits") }
            let plain = Double(text)!
            XCTAssertEqual(fast.bitPattern, plain.bitPattern, text)
            if fast.bitPattern != plain.bitPattern { return }
            checked += 1
        }
        XCTAssertEqual(checked, 200_000)
        for (text, value) in [("-0", -0.0), ("0.1", 0.1), ("170.500124833", 170.500124833), ("-45.8775915", -45.8775915),
                              ("999999999999999", 999_999_999_999_999), ("0.00000000000001", 1e-14)] {
            XCTAssertEqual(exact(text)?.bitPattern, value.bitPattern, text)
        }
    }

    func testAnythingElseIsLeftToDoubleOfString() {
        for text in ["", "-", ".5", "1.", "1e3", "1E-3", "+1", "1.2.3", "--1", "1-2", "1234567890123456", "0.1234567890123456"] {
            XCTAssertNil(exact(text), text)
        }
        // What the fallback reads: the reader still takes these the way it always did.
        let line = #"{"class":"TPV","mode":3,"lat":4.5e1,"lon":1234567.12345678901}"#
        let fix = Array(line.utf8).withUnsafeBufferPointer { GPSDFix.tpv($0) }
        XCTAssertEqual(fix?.latitude, 45)
        XCTAssertEqual(fix?.longitude, Double("1234567.12345678901"))
    }

    func testKeyLiteralsAreTheirNamesPacked() {
        let keys: [(String, UInt64)] = [
            ("class", GPSDFix.Key.class), ("TPV", GPSDFix.Key.tpv), ("time", GPSDFix.Key.time), ("mode", GPSDFix.Key.mode),
            ("lat", GPSDFix.Key.lat), ("lon", GPSDFix.Key.lon), ("eph", GPSDFix.Key.eph), ("epx", GPSDFix.Key.epx),
            ("epy", GPSDFix.Key.epy), ("speed", GPSDFix.Key.speed), ("track", GPSDFix.Key.track),
        ]
        for (name, literal) in keys { XCTAssertEqual(GPSDFix.Key.pack(name), literal, name) }
        // A key that only begins like one, or carries an escape or a NUL, is none of them.
        for line in [#"{"class":"TPV","lat\u0000":1,"mode":3}"#, #"{"class":"TPV","latitude":1,"mode":3}"#,
                     #"{"class":"TPV","la\"t":1,"mode":3}"#, "{\"class\":\"TPV\",\"lat\u{0}\":1,\"mode\":3}"] {
            let fix = Array(line.utf8).withUnsafeBufferPointer { GPSDFix.tpv($0) }
            XCTAssertEqual(fix?.mode, 3, line)
            XCTAssertNil(fix?.latitude, line)
        }
        XCTAssertNil(Array(#"{"class":"TPVX","mode":3}"#.utf8).withUnsafeBufferPointer { GPSDFix.tpv($0) })
    }
}
