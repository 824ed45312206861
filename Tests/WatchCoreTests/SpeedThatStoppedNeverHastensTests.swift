import Glibc
import WatchCore
import XCTest

/// The Doppler hastens a ring only while the readings themselves still carry the boat away
/// (Docs/verdict.md, "The Doppler"; issue 24). The speed the watch follows is smoothed over
/// `doppler_span` (20 s), so it keeps much of its value for a while after the readings say the
/// boat has stopped. A receiver's excursion that goes out with its speed and then stands still
/// just beyond the radius must be judged on position alone once its readings stop: the held-out
/// filter-speed nights 1210 and 1463 of the benchmark rang so, hastened by a smoothed speed after
/// the excursion had stopped (Docs/benchmarks.md).
final class SpeedThatStoppedNeverHastensTests: XCTestCase {
    /// Twenty minutes at 1 Hz: the boat 30 m from the anchor with a 40 m radius, its fixes 2 m
    /// either side each second (the noise prior set to that 2 m; its own speed 0.05 m/s, which the
    /// positions don't show, so its speed is trusted after ten minutes). At 900 s the position
    /// goes straight out at 1.2 m/s for 10 s (the reported speed with it, the track agreeing),
    /// stops 2 m beyond the radius and stands there, still 2 m either side, for 40 s, then goes
    /// back. Standing there, position alone is quiet: half its fixes stand on the radius, the
    /// others within half a wander of the deadband.
    private func firstRing(_ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 40
            s.noisePrior = 2
            configure(&s)
        }
        h.anchored(armed: true)
        for i in 0..<1200 {
            var out = 0.0, speed = 0.0
            switch i {
            case 900..<910: out = 1.2 * Double(i - 900); speed = 1.2
            case 910..<950: out = 12
            case 950..<960: out = 12 - 1.2 * Double(i - 950); speed = -1.2
            default: break
            }
            let d = 30 + out + (i % 2 == 0 ? 2 : -2)
            let v = speed + 0.05 * sin(1.3 * Double(i))
            if h.sendAlongLine(north: d, speed: v) { return Double(i) }
        }
        return nil
    }

    /// Quiet with the rule on the readings' slowing taken out too (`WatchGuard.dopplerSlowing`,
    /// which a stop from 1.2 m/s at once also trips): this rule alone holds them.
    func testASpeedThatStoppedNeverHastensARing() {
        XCTAssertNil(firstRing(), "the smoothed speed hastened a ring after the readings stopped")
        XCTAssertNil(firstRing { $0.guardsOff.insert(.dopplerSlowing) }, "the smoothed speed hastened a ring after the readings stopped, the slowing rule out")
    }

    /// The same readings with the guard taken out (`WatchGuard.dopplerNow`, and the slowing rule
    /// with it) ring while the boat stands still, and with no speed at all nothing rings: the
    /// readings above test the guard.
    func testTheStopRingsOnlyOnTheSmoothedSpeed() throws {
        let ring = try XCTUnwrap(firstRing { $0.guardsOff.formUnion([.dopplerNow, .dopplerSlowing]) }, "the stop never rang on the smoothed speed")
        XCTAssertGreaterThanOrEqual(ring, 910, "rang before the boat stopped")
        XCTAssertNil(firstRing { $0.dopplerThreshold = .infinity }, "position alone rang")
    }
}
