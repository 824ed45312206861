import WatchCore
import XCTest

/// A speed worked out from the positions over several seconds (what plotters and some receivers
/// report as a smoothed SOG) moves with the positions' wander as surely as one from the last two
/// fixes: it must never pass for the receiver's own Doppler (Docs/verdict.md, "The Doppler").
/// Issue 24 item 4: the independence test only recognised the difference of the last two fixes.
final class SmoothedSpeedFromPositionsTests: XCTestCase {
    /// A receiver's wander about 20 m from the anchor: slow swings of a few meters and a
    /// half-meter jitter from one fix to the next (a fixed pseudo-random sequence).
    private struct Wander {
        var jitter: [Double] = []

        init(seconds: Int) {
            var x: UInt64 = 0x9E37_79B9_7F4A_7C15
            for _ in 0...seconds {
                x = x &* 6364136223846793005 &+ 1442695040888963407
                jitter.append(Double(x >> 11) / Double(1 << 53) - 0.5)
            }
        }

        func place(_ t: Double) -> (east: Double, north: Double) {
            let i = min(max(Int(t), 0), jitter.count - 1)
            return (1.5 * sin(t * 2 * .pi / 53) + jitter[i] * 0.6,
                    20 + 3 * sin(t * 2 * .pi / 71) + 1.5 * sin(t * 2 * .pi / 17) + jitter[(i * 7 + 3) % jitter.count])
        }
    }

    /// The speed and course of the move over the last `span` seconds.
    private func derived(_ w: Wander, _ t: Double, span: Double) -> (Double, Double) {
        let a = w.place(t - span), b = w.place(t)
        let ve = (b.east - a.east) / span, vn = (b.north - a.north) / span
        var track = atan2(ve, vn) * 180 / .pi
        if track < 0 { track += 360 }
        return ((ve * ve + vn * vn).squareRoot(), track)
    }

    /// Twenty minutes holding, 1 Hz, with the speed worked out over `span` seconds.
    private func holding(span: Double) -> Harness {
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 30
        }
        h.anchored(armed: true)
        let w = Wander(seconds: 1300)
        for i in 0..<1200 {
            let t = Double(i) + 20
            let p = w.place(t), v = derived(w, t, span: span)
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: p.east, north: p.north), accuracy: 5,
                                       speed: v.0, track: v.1, received: h.now)))
            h.wait(1)
        }
        return h
    }

    private func assertRecognised(span: Double, file: StaticString = #filePath, line: UInt = #line) {
        let h = holding(span: span)
        XCTAssertEqual(h.watch.verdict, .holding, file: file, line: line)
        XCTAssertFalse(h.watch.noise.speedIndependent(h.watch.settings),
                       "a speed worked out over \(span) s passed for the receiver's own", file: file, line: line)
    }

    func testASpeedWorkedOutOverThreeSecondsIsNoDoppler() { assertRecognised(span: 3) }
    func testASpeedWorkedOutOverFiveSecondsIsNoDoppler() { assertRecognised(span: 5) }
    func testASpeedWorkedOutOverTenSecondsIsNoDoppler() { assertRecognised(span: 10) }
    func testASpeedWorkedOutOverTheLastTwoFixesIsNoDoppler() { assertRecognised(span: 1) }

    /// The same wander with the receiver's own speed (small, and not the positions' move) is
    /// still the receiver's own: the test does not throw out a real Doppler.
    func testTheReceiversOwnSpeedStillCounts() {
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 30
        }
        h.anchored(armed: true)
        let w = Wander(seconds: 1300)
        for i in 0..<1200 {
            let p = w.place(Double(i) + 20)
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: p.east, north: p.north), accuracy: 5,
                                       speed: 0.03 + 0.02 * w.jitter[i], track: Double((i * 37) % 360), received: h.now)))
            h.wait(1)
        }
        XCTAssertTrue(h.watch.noise.speedIndependent(h.watch.settings))
    }
}
