import Glibc
import WatchCore
import XCTest

/// A receiver's quick excursions teach the watch how far they reach even while a slow wander
/// holds its fixes on one side of where the boat lies (Docs/verdict.md, "The receiver's wander";
/// issue 24). The slow level the wander is measured about follows over five minutes; a slow
/// wander keeps the fixes a few meters to one side of it for minutes, and an excursion that runs
/// further that way and back never crosses it within the outing span. Measured against the
/// distance's quick level (its mean over a minute), it does.
final class ExcursionsOnASlowWanderTeachTests: XCTestCase {
    /// Two hours at 1 Hz, no speed reported: the boat 30 m from the anchor with a 40 m radius,
    /// its fixes 1 m either side each second, on a slow wander of 2 m either way (a triangle over
    /// 20 minutes: the fixes stand up to 2 m beyond the slow level as it rises, short of it as it
    /// falls). Four times, late in a fall, an excursion runs 14 m toward the anchor and back over
    /// 40 s; then, as the wander rises, one runs 18 m away from it, its top 9 m beyond the
    /// radius, about four wanders as the RMS measures it. `dragAt`: from then on the boat drags
    /// at 0.5 m/s.
    private func firstRing(dragAt: Int? = nil, _ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        var h = Harness.armed(radius: 40, configure)
        let length = 40.0
        func raised(_ into: Int, _ size: Double) -> Double {
            into >= 0 && Double(into) < length ? size * (1 - cos(2 * .pi * Double(into) / length)) / 2 : 0
        }
        return h.secondsUntilRinging(limit: 7200) { t in
            let i = Int(t)
            let phase = Double(i % 1200) / 1200
            let slow = phase < 0.5 ? -2 + 8 * phase : 2 - 8 * (phase - 0.5)
            let cycle = i / 1200
            var out = 0.0
            if cycle >= 1, cycle <= 4 { out -= raised(i % 1200 - 1060, 14) }
            if cycle == 5 { out += raised(i % 1200 - 460, 18) }
            if let d = dragAt, i >= d { out = 0.5 * Double(i - d) }
            return (0, 30 + slow + out + (i % 2 == 0 ? 1 : -1))
        }
    }

    func testExcursionsOnASlowWanderTeachTheirReach() {
        XCTAssertNil(firstRing(), "an excursion 1.3 times the ones before it rang: they taught no reach")
    }

    /// The same readings with the outings measured against the slow level
    /// (`WatchGuard.wanderQuickLevel` off) ring on the large excursion: the excursions toward the
    /// anchor never crossed back over it within the outing span, so they taught nothing.
    func testTheExcursionRingsAgainstTheSlowLevel() throws {
        let ring = try XCTUnwrap(firstRing { $0.guardsOff.insert(.wanderQuickLevel) },
                                 "the large excursion never rang with the outings against the slow level")
        XCTAssertGreaterThanOrEqual(ring, 6000 + 460, "rang before the large excursion")
        XCTAssertLessThan(ring, 6000 + 460 + 40, "rang after the large excursion")
    }

    /// The quick level follows where the boat comes to lie: the boat lies 30 m from the anchor
    /// for 20 minutes, its fixes 1 m either side each second, then the wind shifts and over a
    /// minute it comes to lie 6 m further out, and stays. Ten minutes later an excursion runs
    /// 14 m further out and back over 40 s: the reach learns it (a level that stayed where the
    /// boat lay at first would have the fixes on one side of it since the shift, and the
    /// excursion would never cross back).
    func testTheQuickLevelFollowsWhereTheBoatComesToLie() {
        var h = Harness.armed(radius: 60)
        func place(_ i: Int) -> (Double, Double) {
            let shift: Double = 6 * Swift.min(Swift.max(Double(i - 1200) / 60, 0), 1)
            let into = Double(i - 1860)
            let out = into >= 0 && into < 40 ? 14 * (1 - cos(2 * .pi * into / 40)) / 2 : 0
            return (0, 30 + shift + out + (i % 2 == 0 ? 1 : -1))
        }
        h.fixes(1850) { place($0) }
        XCTAssertLessThan(h.watch.noise.wanderReach, 5, "the reach had learnt an outing before the excursion")
        h.fixes(550) { place(1850 + $0) }
        XCTAssertGreaterThan(h.watch.noise.wanderReach, 11, "the excursion after the boat came to lie further out taught no reach")
    }

    /// A drag after the excursions still rings: at 0.5 m/s from about 30 m the boat leaves the
    /// 40 m circle about 20 s after it starts, and rings within a minute of that.
    func testADragAfterTheExcursionsStillRings() throws {
        let ring = try XCTUnwrap(firstRing(dragAt: 5000), "the drag never rang")
        XCTAssertLessThanOrEqual(ring, 5000 + 24 + 60)
    }
}
