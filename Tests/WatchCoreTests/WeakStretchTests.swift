import WatchCore
import XCTest

/// The false alarms the benchmark's poor receiver found in 2D stretches among its 3D fixes
/// (Docs/benchmarks.md, "Condition false alarms, traced"): the stretches wandered past the
/// radius. One wander is a fixed 5 m here (Harness), the radius 30 m.
private extension Harness {
    var ringing: Bool { if case .ringing = watch.alarm { return true } else { return false } }
}

final class WeakStretchTests: XCTestCase {
    /// Ten minutes of 3D fixes lying 20 m out, then `seconds` of fixes at `north` in `mode`.
    private func stretch(_ mode: GPSReading.Mode, at north: Double, for seconds: Int,
                         _ configure: (inout WatchSettings) -> Void) -> Harness {
        var h = Harness(configure)
        h.anchored(armed: true)
        for _ in 0..<600 { h.send(.reading(h.reading(east: 0, north: 20))); h.wait(1) }
        for _ in 0..<seconds {
            h.send(.reading(h.reading(east: 0, north: north, mode: mode)))
            h.wait(1)
            if h.ringing { break }
        }
        return h
    }

    /// 40 m is two wanders beyond the 30 m radius: one beyond the deadband of 1, none beyond a
    /// weak deadband of 2. A 2D stretch there among 3D fixes builds nothing; the same fixes in
    /// 3D ring, and so does the 2D stretch with the weak deadband set to the deadband.
    func testATwoDStretchAmongThreeDFixesCountsOnlyBeyondTheWeakDeadband() {
        let weak = stretch(.twoD, at: 40, for: 300) { $0.weakDeadband = 2 }
        XCTAssertEqual(weak.watch.alarm, .armed)
        // No evidence; the fixes say beyond the radius, so Checking with nothing filled, never Holding.
        XCTAssertEqual(weak.watch.verdict, .checking(progress: 0))
        let strong = stretch(.threeD, at: 40, for: 300) { $0.weakDeadband = 2 }
        XCTAssertTrue(strong.ringing, "the same fixes in 3D are a drag")
        let same = stretch(.twoD, at: 40, for: 300) { $0.weakDeadband = 1 }
        XCTAssertTrue(same.ringing, "with the weak deadband at the deadband, the 2D stretch rings (more slowly)")
        // Far enough out, a 2D stretch rings even with the weak deadband: weaker, never none.
        let far = stretch(.twoD, at: 50, for: 300) { $0.weakDeadband = 2 }
        XCTAssertTrue(far.ringing)
    }

    /// A source that is all weak (RMC only, a chartplotter's output through gpsd) has its
    /// wander measured on those fixes all along: it keeps the deadband, and rings at 40 m.
    func testAnRMCOnlySourceKeepsTheDeadband() {
        var h = Harness { $0.weakDeadband = 2 }
        h.fixes(5, accuracy: nil) { _ in (0, 0) }
        for _ in 0..<5 { h.send(.reading(h.reading(east: 0, north: 0, accuracy: nil, mode: .twoD))); h.wait(1) }
        h.send(.decision(.mark(.here)))
        h.send(.armSwitch(on: true))
        for _ in 0..<600 { h.send(.reading(h.reading(east: 0, north: 20, accuracy: nil, mode: .twoD))); h.wait(1) }
        for _ in 0..<300 where !h.ringing {
            h.send(.reading(h.reading(east: 0, north: 40, accuracy: nil, mode: .twoD)))
            h.wait(1)
        }
        XCTAssertTrue(h.ringing, "an RMC-only box rings two wanders beyond the radius, as a 3D one does (later: weight 0.5)")
    }
}
