import WatchCore
import XCTest

/// Issue 26: the arc a boat swept before a wind shift still shows where the anchor is, hours
/// later, while the boat swings about the same centre. Old cells are forgotten (`forgetAfter`)
/// except those on the circle of a settled estimate whose centre is not moving.
final class SwingKeepsItsArcTests: XCTestCase {
    /// The antenna 30 m from the anchor on `bearing` degrees, yawing 15 degrees each way over a
    /// minute, with 1 m of noise.
    static func antenna(_ t: Double, bearing: Double, noise: inout SwingEstimatorTests.Noise) -> Coordinate {
        let b = bearing + 15 * sin(2 * .pi * t / 60)
        let p = Geodesy.destination(from: Harness.at(east: 0, north: 0), bearing: b, distance: Meters(30))
        let o = Geodesy.offset(from: Harness.origin, to: p)
        return Harness.at(east: o.east + noise.next(), north: o.north + noise.next())
    }

    func testASettledArcIsNotForgottenWhileTheCentreStaysPut() throws {
        var settings = SwingEstimator.Settings()
        settings.forgetAfter = .seconds(1800)
        var e = SwingEstimator(settings: settings)
        var noise = SwingEstimatorTests.Noise()
        let anchor = Harness.at(east: 0, north: 0)
        // Lying south for 20 minutes, a 110 degree shift over 20 minutes, then lying west-north-west
        // for an hour: the south and the shift's arc last seen more than `forgetAfter` ago.
        for i in 0..<6000 {
            let t = Double(i)
            let turned: Double = min(max((t - 1200) / 1200, 0), 1)
            let bearing = 180 + 110 * turned
            if i == 3000 { XCTAssertTrue(e.estimate?.settled ?? false, "settled before the lull") }
            // Half a minute 12 m short of the circle (the rode slack in a lull), once settled:
            // cells off the circle, forgotten as ever.
            if (3000..<3030).contains(i) {
                let p = Geodesy.destination(from: anchor, bearing: 290, distance: Meters(18))
                let o = Geodesy.offset(from: Harness.origin, to: p)
                e.add(Harness.at(east: o.east + 0.3 * noise.next(), north: o.north + 0.3 * noise.next()), at: Instant(seconds: t))
                continue
            }
            e.add(Self.antenna(t, bearing: bearing, noise: &noise), at: Instant(seconds: t))
        }
        let est = try XCTUnwrap(e.estimate)
        XCTAssertTrue(est.settled, "arc \(est.arc), uncertainty \(est.uncertainty.value)")
        XCTAssertFalse(est.moving)
        XCTAssertGreaterThanOrEqual(est.arc, 120)
        XCTAssertLessThan(Geodesy.distance(est.centre, anchor).value, 3)
        // The cells off the circle (the lull's, 18 m from the anchor) are forgotten as before.
        let memory = try XCTUnwrap(e.memory(at: Instant(seconds: 6000)))
        let near = memory.cells.filter { c in
            let o = Geodesy.offset(from: memory.origin, to: anchor)
            let de = c.east - o.east, dn = c.north - o.north
            return (de * de + dn * dn).squareRoot() < 23
        }
        XCTAssertEqual(near.count, 0)
        // Kept across a restart: the restored estimate fits the same arc.
        var restored = SwingEstimator(settings: settings)
        restored.restore(memory, at: Instant(seconds: 100_000))
        let back = try XCTUnwrap(restored.estimate)
        XCTAssertTrue(back.settled, "restored: arc \(back.arc), uncertainty \(back.uncertainty.value)")
        XCTAssertGreaterThanOrEqual(back.arc, 120)
    }
}
