import Glibc
import WatchCore
import XCTest

/// A receiver's quick excursions never ring (Docs/verdict.md, "The receiver's wander"; issue 24).
/// Some receivers hold still to a meter or two and then, a few times an hour, run out 20 or 30 m
/// and back within a minute (multipath, a satellite lost or gained, the filter re-converging):
/// heavy tails that a root-mean-square wander hardly shows. The watch learns how far such quick
/// outings reach and, on position alone, counts a fix's wander as at least that reach over
/// `wanderTail`; a drag, which never comes back, still rings.
final class QuickExcursionsNeverRingTests: XCTestCase {
    /// Two hours at 1 Hz, no speed reported: the boat 30 m from the anchor with a 40 m radius,
    /// its fixes 1 m either side each second, and every 20 minutes from the second minute an
    /// excursion straight away from the anchor, out and back over 40 s (a raised cosine): 12 m
    /// for the first five, 16 m for the sixth, whose top stands 7 m beyond the radius, nearly
    /// five wanders as the RMS measures it. `dragAt`: from then on the boat drags away at 0.5 m/s.
    private func firstRing(dragAt: Int? = nil, _ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        var h = Harness.armed(radius: 40, configure)
        for i in 0..<7200 {
            let into = Double((i - 120) % 1200), length = 40.0, size = i >= 6000 ? 16.0 : 12.0
            var out = 0.0
            if i >= 120, into < length, i < (dragAt ?? Int.max) { out = size * (1 - cos(2 * .pi * into / length)) / 2 }
            if let d = dragAt, i >= d { out = 0.5 * Double(i - d) }
            let d = 30 + out + (i % 2 == 0 ? 1 : -1)
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: d), accuracy: 5, received: h.now)))
            if case .ringing = h.watch.alarm { return Double(i) }
            h.wait(1)
        }
        return nil
    }

    func testAReceiversQuickExcursionsNeverRing() {
        XCTAssertNil(firstRing(), "an excursion no further than 1.3 times the ones before it rang")
    }

    /// The same readings with the reach taken out (`WatchGuard.wanderReach`) ring on the large
    /// excursion: the readings above do test the guard.
    func testTheExcursionRingsWithoutItsReach() throws {
        let ring = try XCTUnwrap(firstRing { $0.guardsOff.insert(.wanderReach) }, "the large excursion never rang without the reach")
        XCTAssertGreaterThanOrEqual(ring, 6120, "a small excursion rang without the reach")
    }

    /// A drag after the excursions still rings: at 0.5 m/s from 30 m the boat leaves the 40 m
    /// circle 20 s after it starts, and rings within a minute of that.
    func testADragAfterTheExcursionsStillRings() throws {
        let ring = try XCTUnwrap(firstRing(dragAt: 5000), "the drag never rang")
        XCTAssertLessThanOrEqual(ring, 5000 + 20 + 60)
    }
}
