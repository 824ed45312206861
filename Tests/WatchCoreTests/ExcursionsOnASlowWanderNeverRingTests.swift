import Glibc
import WatchCore
import XCTest

/// A receiver's quick excursions are learnt even when its slow wander keeps the distance on one
/// side of where the boat lies for minutes (Docs/verdict.md, "Quick excursions"; issue 24). An
/// outing that never crosses back over the level within `wanderOutingSpan` used to teach the
/// reach nothing, however quick the excursion on top of it: the held-out filter-speed night 1281
/// of the benchmark rang so on position alone (Docs/benchmarks.md). An outing now counts once
/// the fix has come back half way to the level within that span of its peak.
final class ExcursionsOnASlowWanderNeverRingTests: XCTestCase {
    /// Two hours at 1 Hz, no speed reported: the boat 30 m from the anchor with a 40 m radius, its
    /// fixes 1 m either side each second. Every 20 minutes from the tenth minute the receiver's
    /// slow wander carries the distance 4 m out (over 100 s, from 300 s before the excursion),
    /// holds it there and brings it back (over 100 s, from 100 s after), and on top of it the
    /// position makes an excursion straight away from the anchor, out and back over 40 s (a
    /// raised cosine): 12 m for the first five, 14 m for the sixth, whose top stands 9 m beyond
    /// the radius. `dragAt`: from then on the boat drags away at 0.5 m/s.
    private func firstRing(dragAt: Int? = nil, _ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 40
            configure(&s)
        }
        h.anchored(armed: true)
        for i in 0..<7200 {
            let k = i < 300 ? -1 : (i - 300) / 1200
            let start = 600 + 1200 * k, into = Double(i - start), size = k >= 5 ? 14.0 : 12.0
            var wander = 0.0, out = 0.0
            if k >= 0 {
                wander = 4 * min(max((into + 300) / 100, 0), 1) * min(max((200 - into) / 100, 0), 1)
                if into >= 0, into < 40 { out = size * (1 - cos(2 * .pi * into / 40)) / 2 }
            }
            if let d = dragAt, i >= d { wander = 0; out = 0.5 * Double(i - d) }
            let d = 30 + wander + out + (i % 2 == 0 ? 1 : -1)
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: d), accuracy: 5, received: h.now)))
            if case .ringing = h.watch.alarm { return Double(i) }
            h.wait(1)
        }
        return nil
    }

    func testExcursionsOnASlowWanderNeverRing() {
        XCTAssertNil(firstRing(), "an excursion no further than 1.2 times the ones before it rang")
    }

    /// The same readings with the half-way rule taken out (`WatchGuard.wanderHalfBack`) ring on
    /// an excursion: the readings above test the rule.
    func testTheExcursionsRingWhenOnlyACrossingTeachesTheReach() throws {
        let ring = try XCTUnwrap(firstRing { $0.guardsOff.insert(.wanderHalfBack) }, "no excursion rang")
        let into = (Int(ring) - 600) % 1200
        XCTAssertTrue(ring >= 600 && into < 60, "rang at \(ring) s, not on an excursion")
    }

    /// A drag after the excursions still rings: at 0.5 m/s from 30 m the boat leaves the 40 m
    /// circle 20 s after it starts, and rings within 90 s of that.
    func testADragAfterTheExcursionsStillRings() throws {
        let ring = try XCTUnwrap(firstRing(dragAt: 5000), "the drag never rang")
        XCTAssertLessThanOrEqual(ring, 5000 + 20 + 90)
    }
}
