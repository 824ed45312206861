import Glibc
import WatchCore
import XCTest

final class ScratchJumpTests: XCTestCase {
    /// Shipped defaults; an hour at 30 m (radius 40), noise N(0, 1.5) by a fixed LCG, a Doppler
    /// saying ~0; then the fixes jump `jump` m out along the line for `hold` s, then back.
    func ring(jump: Double, hold: Int, speed: Bool, acc: Double) -> Double? {
        var h = Harness { s in s = WatchSettings(); s.radius = 40 }
        h.anchored(armed: true)
        var x: UInt64 = 12345
        func g() -> Double { var s = 0.0; for _ in 0..<12 { x = x &* 6364136223846793005 &+ 1442695040888963407; s += Double(x >> 11) / Double(1 << 53) }; return s - 6 }
        for i in 0..<5400 {
            var d = 30 + 1.5 * g()
            if i >= 3600 && i < 3600 + hold { d += jump }
            let r = GPSReading(mode: .threeD, position: Harness.at(east: 0.7 * g(), north: d), accuracy: Meters(acc),
                               speed: speed ? abs(0.05 * g()) : nil, track: speed ? 0 : nil, received: h.now)
            h.send(.reading(r))
            if case .ringing = h.watch.alarm { return Double(i) }
            h.wait(1)
        }
        return nil
    }
    func drag(speed v: Double, gapFrom: Int, gapLen: Int, doppler: Bool) -> Double? {
        var h = Harness { s in s = WatchSettings(); s.radius = 40 }
        h.anchored(armed: true)
        var x: UInt64 = 999
        func g() -> Double { var s = 0.0; for _ in 0..<12 { x = x &* 6364136223846793005 &+ 1442695040888963407; s += Double(x >> 11) / Double(1 << 53) }; return s - 6 }
        for i in 0..<5400 {
            let moving = i >= 3600
            let d = 30 + 1.5 * g() + (moving ? v * Double(i - 3600) : 0)
            if i >= gapFrom && i < gapFrom + gapLen { h.wait(1); continue }
            let r = GPSReading(mode: .threeD, position: Harness.at(east: 0.7 * g(), north: d), accuracy: 5,
                               speed: doppler ? (moving ? v : abs(0.05 * g())) : nil, track: doppler ? 0 : nil, received: h.now)
            h.send(.reading(r))
            if case .ringing = h.watch.alarm { return Double(i) - (10 / v + 3600) }
            h.wait(1)
        }
        return nil
    }
    func testDrags() {
        for v in [1.0, 2.0, 3.0, 4.0] { for (gf, gl) in [(0, 0), (3603, 20), (3600, 30)] { for dp in [true, false] {
            print("DRAG v \(v) gap \(gf)+\(gl) doppler \(dp): after exit \(drag(speed: v, gapFrom: gf, gapLen: gl, doppler: dp).map { String($0) } ?? "never")")
        } } }
        print("STAY 25 m 600 s: \(ring(jump: 25, hold: 600, speed: true, acc: 5).map { String($0 - 3600) } ?? "quiet")")
        print("STAY 25 m 600 s no speed: \(ring(jump: 25, hold: 600, speed: false, acc: 5).map { String($0 - 3600) } ?? "quiet")")
    }
    func testJumps() {
        for acc in [5.0, 21.0] { for sp in [true, false] { for (j, hold) in [(15.0, 5), (20.0, 5), (20.0, 10), (25.0, 10), (30.0, 15), (40.0, 20)] {
            print("JUMP acc \(acc) speed \(sp) jump \(j) hold \(hold): \(ring(jump: j, hold: hold, speed: sp, acc: acc).map { String($0) } ?? "quiet")")
        } } }
    }
}
