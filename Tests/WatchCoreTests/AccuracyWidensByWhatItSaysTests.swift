import WatchCore
import XCTest

/// A fix's reported accuracy widens its wander by no more than that accuracy says (issue 24,
/// item 6): a precise receiver (RTK, 0.02 m) that loses its corrections and reports 0.8 m or
/// 2.5 m, its position error unchanged, must not show Holding far outside while the boat drags.
final class AccuracyWidensByWhatItSaysTests: XCTestCase {
    static let origin = Coordinate(latitude: 54.3413, longitude: 13.5065)

    /// Two hours lying 20 m from the mark at 0.02 m, then a 0.1 m/s drag reporting `after`:
    /// how far beyond the 30 m radius it rang, and the seconds it read Holding more than 10 m beyond.
    static func drag(reporting after: Double) -> (rangBeyond: Double?, holdingFarBeyond: Double) {
        var watch = Watch()
        var t = Instant(seconds: 1000)
        func fix(_ d: Double, _ accuracy: Double) {
            let p = Geodesy.destination(from: origin, bearing: 45, distance: Meters(d))
            _ = watch.handle(.reading(GPSReading(mode: .threeD, position: p, accuracy: Meters(accuracy), received: t)), at: t)
        }
        for _ in 0..<10 {
            fix(20, 0.02)
            t = t + .seconds(1)
        }
        // The anchor at the origin, the boat lying 20 m from it.
        _ = watch.handle(.decision(.mark(.at(origin))), at: t)
        _ = watch.handle(.armSwitch(on: true), at: t)
        // Two hours lying 20 m out with a small wander (the same before and after).
        var i = 0
        func wander() -> Double { 0.3 * sinDeg(Double(i) * 7.3) + 0.2 * sinDeg(Double(i) * 2.1) }
        for _ in 0..<7200 {
            fix(20 + wander(), 0.02)
            i += 1
            t = t + .seconds(1)
        }
        XCTAssertEqual(watch.verdict, .holding)
        var holdingFar = 0.0
        for s in 0..<1200 {
            let d = 20 + 0.1 * Double(s) + wander()
            fix(d, after)
            i += 1
            if case .ringing = watch.alarm { return (d - 30, holdingFar) }
            if watch.verdict == .holding, d > 40 { holdingFar += 1 }
            t = t + .seconds(1)
        }
        return (nil, holdingFar)
    }

    static func sinDeg(_ x: Double) -> Double {
        // A small deterministic wander without Foundation: a triangle wave in -1...1.
        let p = (x / 360).truncatingRemainder(dividingBy: 1)
        return p < 0.5 ? 4 * p - 1 : 3 - 4 * p
    }

    func testAReceiverLosingItsCorrectionsIsNeverHoldingFarOutside() {
        for after in [0.8, 2.5] {
            let r = Self.drag(reporting: after)
            XCTAssertEqual(r.holdingFarBeyond, 0, "0.02 -> \(after) m: Holding \(r.holdingFarBeyond) s more than 10 m beyond")
            XCTAssertNotNil(r.rangBeyond, "0.02 -> \(after) m: never rang")
            XCTAssertLessThan(r.rangBeyond ?? 99, 10, "0.02 -> \(after) m: rang only \(r.rangBeyond ?? 99) m beyond")
        }
    }
}
