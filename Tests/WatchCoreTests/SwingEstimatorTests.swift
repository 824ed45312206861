import WatchCore
import XCTest

/// The anchor learnt from the swing, through the real watch: a late mark a rode's length
/// downwind, a wind shift that swings the boat, the offer, the decision that takes it.
final class SwingEstimatorTests: XCTestCase {
    /// A small deterministic noise source (an LCG), so every run sees the same night.
    struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
    }

    /// The antenna of a boat lying 30 m from an anchor at (anchorEast, anchorNorth), downwind
    /// on `bearing(t)` degrees, yawing 15 degrees each way over a minute, with 1.5 m of noise.
    static func boat(_ t: Double, bearing: (Double) -> Double, noise: inout Noise,
                     anchorEast: Double = 0, anchorNorth: Double = 0) -> (Double, Double) {
        let yaw = 15 * sin(2 * .pi * t / 60)
        let b = (bearing(t) + yaw) * .pi / 180
        let r = 30 + 1.5 * sin(2 * .pi * t / 300)
        return (anchorEast + r * sin(b) + 1.5 * noise.next(), anchorNorth + r * cos(b) + 1.5 * noise.next())
    }

    /// Lying south of the anchor, then a 90 degree shift over 20 minutes that swings the boat west.
    static func shift(_ t: Double) -> Double { 180 + 90 * min(max((t - 600) / 1200, 0), 1) }

    func lateMark() -> Harness {
        var h = Harness()
        var noise = Noise()
        // Settled on the rode: the skipper marks the boat, 30 m south of the anchor.
        h.fixes(10) { _ in (0, -30) }
        h.send(.decision(.mark(.here)))
        XCTAssertNotNil(h.watch.anchor)
        h.fixes(seconds: 3600, rate: 1) { t in Self.boat(t, bearing: Self.shift, noise: &noise) }
        return h
    }

    func testALateMarkIsFoundFromTheSwingAndMovedOnlyByADecision() throws {
        var h = lateMark()
        let status = h.watch.status(at: h.now)
        let estimate = try XCTUnwrap(status.swing)
        XCTAssertTrue(estimate.settled, "a 90 degree shift is arc enough: \(estimate)")
        XCTAssertFalse(estimate.moving)
        XCTAssertLessThan(Geodesy.distance(estimate.centre, Harness.origin).value, 5)
        XCTAssertLessThan(estimate.uncertainty.value, 8)
        let offer = try XCTUnwrap(status.swingOffer)
        XCTAssertEqual(offer.distance.value, 30, accuracy: 5)
        XCTAssertEqual(Compass.point(offer.bearing), "north")
        XCTAssertTrue(offer.says.hasPrefix("The anchor seems to lie "), offer.says)
        XCTAssertTrue(offer.says.contains("m north of the mark, give or take "), offer.says)
        // Never silently: the mark is still where the skipper put it.
        XCTAssertEqual(Geodesy.distance(h.watch.anchor!, Harness.at(east: 0, north: -30)).value, 0, accuracy: 0.5)
        // The radius it suggests holds the swing seen (30 m plus yaw and noise) with a margin.
        let suggested = try XCTUnwrap(status.suggestedRadius).value
        XCTAssertGreaterThan(suggested, 33)
        XCTAssertLessThan(suggested, 50)

        let actions = h.send(.decision(.mark(.fromSwing)))
        let receipt = try XCTUnwrap(actions.compactMap(\.receipt).first)
        XCTAssertEqual(receipt.decision, .mark(.fromSwing))
        XCTAssertTrue(Words.receipt(receipt, now: h.now).hasPrefix("Anchor marked from the swing at "))
        XCTAssertLessThan(Geodesy.distance(h.watch.anchor!, Harness.origin).value, 5)
        // Taken: nothing more to offer, the learnt swing is kept.
        XCTAssertNil(h.watch.status(at: h.now).swingOffer)
        XCTAssertTrue(h.watch.status(at: h.now).swing?.settled ?? false)
    }

    func testTheButtonMarksTheAnchorNotTheBoatWhileTheOfferStands() throws {
        var h = lateMark()
        XCTAssertNotNil(h.watch.swingOffer)
        let actions = h.send(.button(.long))
        XCTAssertEqual(actions.compactMap(\.receipt).first?.decision, .mark(.fromSwing))
        XCTAssertLessThan(Geodesy.distance(h.watch.anchor!, Harness.origin).value, 5)
    }

    func testNoSwingNoOfferAndTheRefusalSaysWhy() {
        var h = Harness()
        var noise = Noise()
        h.fixes(10) { _ in (0, -30) }
        h.send(.decision(.mark(.here)))
        // Steady wind: only the yaw's arc, 30 degrees.
        h.fixes(seconds: 900, rate: 1) { t in Self.boat(t, bearing: { _ in 180 }, noise: &noise) }
        XCTAssertNil(h.watch.status(at: h.now).swingOffer)
        XCTAssertEqual(h.send(.decision(.mark(.fromSwing))).compactMap(\.refusal), [.swingUnsettled],
                       "\(String(describing: h.watch.swing.estimate))")
        XCTAssertTrue(Words.refusal(.swingUnsettled).hasPrefix("Can't mark from the swing: "))
        // The button then marks the boat, as at the drop.
        XCTAssertEqual(h.send(.button(.long)).compactMap(\.receipt).first?.decision, .mark(.here))
    }

    func testABoatThatDoesNotSwingLearnsNoAnchor() {
        var h = Harness()
        var noise = Noise()
        h.anchored(armed: false)
        h.fixes(seconds: 1200, rate: 1) { _ in (3 * noise.next(), 3 * noise.next()) }
        XCTAssertFalse(h.watch.status(at: h.now).swing?.settled ?? false)
        XCTAssertNil(h.watch.swingOffer)
    }

    /// A drag moves the arc's centre too. What keeps the estimate from following it into a
    /// move of the mark: a drag breaks the circle (the fit spreads, its uncertainty grows, it is
    /// no longer settled) or, slow enough to keep a circle, moves its centre (moving). Either
    /// way nothing is offered once the drag shows.
    func testADragIsNeverOfferedAsTheAnchor() {
        for speed in [0.1, 0.03] {
            var h = lateMark()
            XCTAssertNotNil(h.watch.swingOffer)
            var noise = Noise()
            var offeredLate: [Int] = []
            for minute in 0..<40 {
                h.fixes(seconds: 60, rate: 1) { t in
                    let tt = Double(minute) * 60 + t
                    return Self.boat(tt, bearing: { 270 + 40 * sin(2 * .pi * $0 / 900) }, noise: &noise,
                                     anchorEast: -speed * tt)
                }
                let s = h.watch.status(at: h.now)
                // Dragged further than the offer's own uncertainty allows, and still offered.
                if let offer = s.swingOffer, speed * Double(minute + 1) * 60 > 2 * offer.estimate.uncertainty.value {
                    offeredLate.append(minute)
                }
            }
            XCTAssertEqual(offeredLate, [], "at \(speed) m/s")
        }
    }

    func testAReleaseForgetsTheSwingAndFarthestCountsFromTheMark() throws {
        var h = Harness()
        h.anchored(armed: false)
        h.fixes(20) { i in (0, Double(i)) }
        XCTAssertEqual(try XCTUnwrap(h.watch.status(at: h.now).farthest).value, 19, accuracy: 0.5)
        h.fixes(5) { _ in (0, 5) }
        XCTAssertEqual(try XCTUnwrap(h.watch.status(at: h.now).farthest).value, 19, accuracy: 0.5)
        XCTAssertEqual(h.watch.status(at: h.now).boat.map { Geodesy.distance($0, Harness.at(east: 0, north: 5)).value } ?? 99, 0, accuracy: 0.1)
        h.send(.button(.veryLong))
        XCTAssertNil(h.watch.anchor)
        XCTAssertNil(h.watch.status(at: h.now).farthest)
        XCTAssertEqual(h.watch.swing.readings, 0)
    }

    /// Item 5: a slide to ARM refused for no anchor, then a mark with the switch still on ARM,
    /// arms: the switch is the skipper's word, and the ring must not say off while it says ARM.
    func testAMarkWithTheSwitchOnArmArms() throws {
        var h = Harness()
        h.fixes(5) { _ in (0, 0) }
        XCTAssertEqual(h.send(.armSwitch(on: true)).compactMap(\.refusal), [.noAnchor])
        XCTAssertEqual(h.watch.alarm, .off)
        XCTAssertEqual(Words.refusal(.noAnchor), "Can't arm: no anchor marked, the alarm comes on when you mark it")
        let actions = h.send(.button(.long))
        XCTAssertEqual(actions.compactMap(\.receipt).map(\.decision), [.mark(.here), .arm])
        XCTAssertEqual(actions.compactMap(\.acceptedChirp), [.mark, .arm])
        XCTAssertEqual(h.watch.alarm, .armed)
        // With the switch off, a mark leaves the alarm off.
        var off = Harness()
        off.fixes(5) { _ in (0, 0) }
        off.send(.armSwitch(on: false))
        off.send(.button(.long))
        XCTAssertEqual(off.watch.alarm, .off)
    }

    func testTheEstimateIsBoundedAndCheap() {
        var e = SwingEstimator()
        var noise = Noise()
        let origin = Harness.origin
        // Ten hours at 1 Hz of a boat that wanders widely: the cells stay bounded.
        for i in 0..<36_000 {
            let t = Double(i)
            let p = Geodesy.destination(from: origin, bearing: t.truncatingRemainder(dividingBy: 360),
                                        distance: Meters(40 + 200 * abs(noise.next())))
            e.add(p, at: Instant(seconds: t))
        }
        XCTAssertLessThanOrEqual(e.cellCount, e.settings.maxCells)
    }

    func testCompassPoints() {
        XCTAssertEqual(Compass.point(0), "north")
        XCTAssertEqual(Compass.point(315), "north-west")
        XCTAssertEqual(Compass.point(359), "north")
        XCTAssertEqual(Compass.point(200), "south")
        XCTAssertEqual(Compass.point(-45), "north-west")
    }
}
