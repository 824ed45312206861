@testable import Recordings
import XCTest

/// `JSONValue.format` writes its digits into the string's bytes; it must say what the plain way
/// says (7 decimals, trailing zeros trimmed, no "-0"), written here the plain way.
final class JSONNumberTests: XCTestCase {
    private func plain(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        let scaled = (abs(n) * 10_000_000.0).rounded()
        guard scaled < 9e18 else { return String(n) }
        let whole = Int64(scaled) / 10_000_000
        var frac = String(Int64(scaled) % 10_000_000)
        while frac.count < 7 { frac = "0" + frac }
        while frac.hasSuffix("0") { frac.removeLast() }
        let sign = n < 0 && (whole != 0 || !frac.isEmpty) ? "-" : ""
        return frac.isEmpty ? sign + String(whole) : sign + String(whole) + "." + frac
    }

    func testEveryNumberIsWrittenAsThePlainWayWritesIt() {
        var rng = SystemRandomNumberGenerator()
        var cases: [Double] = [0, -0.0, 0.5, -0.5, 1e-8, -1e-8, 4e-8, 6e-8, 54.3413021, 13.5065009, 1_796_013_264.7247526,
                               0.0000001, 9.99999995, 123456789012.5, 9e11, 8.99e11, .infinity, .nan, 1e300, -1e300]
        for _ in 0..<100_000 {
            let magnitude = Double.random(in: -9...12, using: &rng)
            cases.append(Double.random(in: -1...1, using: &rng) * Double(sign: .plus, exponent: 0, significand: 1) * pow10(magnitude))
        }
        for n in cases { XCTAssertEqual(JSONValue.format(n), plain(n), "\(n)") }
    }

    private func pow10(_ x: Double) -> Double {
        var r = 1.0
        var k = Int(x.rounded(.down))
        while k > 0 { r *= 10; k -= 1 }
        while k < 0 { r /= 10; k += 1 }
        return r
    }
}
