import WatchCore
import XCTest

/// A long press at a drop marks where the boat is, unless the box is sure the boat still lies
/// to the old anchor (issue 24, item 7): the skipper who weighs anchor and re-anchors 25 m away
/// without a release, while the swing's offer stands, gets the mark at the boat, not at the old
/// swing's centre.
final class PressAtADropMarksTheBoatTests: XCTestCase {
    /// The swing settled about the anchor at the origin, the mark 30 m south of it: the offer
    /// stands. The boat then lies west of the anchor (the wind shift).
    func settled() -> Harness {
        var h = Harness()
        var noise = SwingEstimatorTests.Noise()
        h.fixes(10) { _ in (0, -30) }
        h.send(.decision(.mark(.here)))
        h.fixes(seconds: 3600, rate: 1) { t in
            SwingEstimatorTests.boat(t, bearing: SwingEstimatorTests.shift, noise: &noise)
        }
        return h
    }

    /// Motors from where it lies (30 m west of the old anchor) straight to the new anchor `to`,
    /// at 1 m/s (the old one weighed from afar, or a second one dropped).
    static func reanchor(_ h: inout Harness, to: (Double, Double)) {
        let start = (-30.0, 0.0)
        var legs: [(Double, Double)] = []
        let dx = to.0 - start.0, dy = to.1 - start.1
        let n = Int((dx * dx + dy * dy).squareRoot())
        for i in 1...n { legs.append((start.0 + dx * Double(i) / Double(n), start.1 + dy * Double(i) / Double(n))) }
        for p in legs {
            h.send(.reading(h.reading(east: p.0, north: p.1)))
            h.wait(1)
        }
    }

    func testAPressAtTheDropMarksTheBoat() throws {
        var h = settled()
        XCTAssertNotNil(h.watch.swingOffer)
        Self.reanchor(&h, to: (0, 25))
        // At the drop, a few fixes over the new anchor.
        h.fixes(3) { _ in (0, 25) }
        XCTAssertNotNil(h.watch.swingOffer, "the offer still stands")
        h.send(.button(.long))
        let mark = try XCTUnwrap(h.watch.anchor)
        XCTAssertLessThan(Geodesy.distance(mark, Harness.at(east: 0, north: 25)).value, 3,
                          "marked \(Geodesy.distance(mark, Harness.at(east: 0, north: 25))) from the new anchor")
    }

    func testAPressWhileLyingToTheOldAnchorStillTakesTheSwing() throws {
        var h = settled()
        XCTAssertNotNil(h.watch.swingOffer)
        h.send(.button(.long))
        XCTAssertLessThan(Geodesy.distance(try XCTUnwrap(h.watch.anchor), Harness.origin).value, 5)
    }

    func testAPressAfterFallingBackOnTheNewAnchorMarksTheBoat() throws {
        var h = settled()
        Self.reanchor(&h, to: (0, 25))
        // Falls back 30 m downwind (west) of the new anchor over a minute, and lies there.
        h.fixes(60) { i in (-30 * Double(i) / 60, 25) }
        h.fixes(60) { _ in (-30, 25) }
        h.send(.button(.long))
        let mark = try XCTUnwrap(h.watch.anchor)
        XCTAssertLessThan(Geodesy.distance(mark, Harness.at(east: -30, north: 25)).value, 3,
                          "marked \(Geodesy.distance(mark, Harness.at(east: -30, north: 25))) from the boat")
    }
}
