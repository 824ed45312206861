import Glibc
import WatchCore
import XCTest

/// The Doppler hastens a ring only while the readings hold their speed: the readings' radial
/// speed no more than `doppler_slowing` below the fastest it stood over the last
/// `doppler_slowing_span` (Docs/verdict.md, "The Doppler"; issue 24). A receiver whose speed
/// moves with its position reports an excursion's speed as it goes: rising, then falling as the
/// fixes near their turn, which is where they stand beyond the radius. Its first large excursion
/// after the speed's trust runs far faster than the reach the speed learnt on its jitter, and
/// rang so on held-out filter-speed nights 13095 and 15091 and lagged-speed night 13805 of the
/// benchmark (Docs/benchmarks.md, "A first excursion turns"). A drag holds its speed, and rings
/// as soon as before.
final class AnExcursionTurningNeverHastensTests: XCTestCase {
    /// Twenty minutes at 1 Hz, the boat 30 m from the anchor (a 46 m radius), its fixes wandering
    /// 4 m either side (the noise prior set to that 4 m). From 100 s to 800 s, every 100 s, the
    /// position goes out at 0.3 m/s for 10 s and back (speed and track agreeing): the speed's
    /// reach. At 900 s it runs out 20 m over 20 s and, with `turns`, back over the next 20 s (a
    /// raised cosine, 1.6 m/s at its fastest), the speed following the position as a filter's
    /// does: the fixes stand up to 8 m beyond the radius as the speed falls. Without `turns` it
    /// goes on at its fastest, as a drag does.
    private func firstRing(turns: Bool, _ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        let size = 20.0, length = 40.0, fastest = size * Double.pi / length
        return firstRing(configure) { t in
            if !turns, t >= length / 4 { return fastest }
            return t < length ? fastest * sin(2 * Double.pi * t / length) : nil
        }
    }

    /// The night above, the boat's speed `t` seconds after 900 s from `motion` (nil: back where
    /// it lay, and still).
    private func firstRing(_ configure: (inout WatchSettings) -> Void = { _ in },
                           motion: (Double) -> Double?) -> Double? {
        var h = Harness.armed(radius: 46) { s in
            s.noisePrior = 4
            configure(&s)
        }
        var out = 0.0
        for i in 0..<1200 {
            var speed = 0.0
            let k = i % 100
            if i >= 100, i < 800, k < 20 { speed = k < 10 ? 0.3 : -0.3 }
            if i >= 900 {
                if let v = motion(Double(i - 900)) { speed = v } else { out = 0 }
            }
            out += speed
            let d = 30 + out + 4 * sin(2.1 * Double(i))
            let v = speed + 0.05 * sin(1.3 * Double(i))
            if h.sendAlongLine(north: d, speed: v) { return Double(i) }
        }
        return nil
    }

    func testAnExcursionThatTurnsNeverHastens() {
        XCTAssertNil(firstRing(turns: true), "the speed of an excursion nearing its turn hastened a ring")
    }

    /// The same excursion rings with the guard taken out (`WatchGuard.dopplerSlowing`), and on
    /// position alone nothing rings: the turning excursion tests the guard.
    func testTheExcursionRingsOnlyWithTheSpeedFalling() throws {
        XCTAssertNil(firstRing(turns: true) { $0.dopplerThreshold = .infinity }, "position alone rang")
        let ring = try XCTUnwrap(firstRing(turns: true) { $0.guardsOff.insert(.dopplerSlowing) },
                                 "the excursion never rang with its falling speed")
        XCTAssertGreaterThanOrEqual(ring, 900, "rang before the excursion")
    }

    /// A drag that holds its speed rings when it did without the guard, and sooner than on
    /// position alone.
    func testADragHoldingItsSpeedRingsAsSoon() throws {
        let ring = try XCTUnwrap(firstRing(turns: false), "the drag never rang")
        let without = try XCTUnwrap(firstRing(turns: false) { $0.guardsOff.insert(.dopplerSlowing) })
        let alone = try XCTUnwrap(firstRing(turns: false) { $0.dopplerThreshold = .infinity })
        XCTAssertEqual(ring, without, "the guard slowed a drag that held its speed")
        XCTAssertLessThan(ring, alone, "the speed did not hasten the drag")
    }

    /// The same boat from 900 s dragging at 2.1 m/s (4 kn), its speed rocked 0.18 m/s either way
    /// by the swing every 8 s: the readings fall up to 0.36 m/s from their fastest over 4 s, more
    /// than `doppler_slowing` and less than `doppler_slowing_share` of the fastest.
    private func fastDragRocking(_ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        firstRing(configure) { t in 2.1 + 0.18 * sin(2 * Double.pi * (t / 8 + 0.75)) }
    }

    /// A fast drag whose swing rocks its speed rings as soon as without the guard: the fall the
    /// guard allows grows with the speed (`doppler_slowing_share`). With the 0.25 m/s alone it
    /// rings later, so the drag tests the share.
    func testAFastDragRockedByItsSwingRingsAsSoon() throws {
        let ring = try XCTUnwrap(fastDragRocking(), "the drag never rang")
        let without = try XCTUnwrap(fastDragRocking { $0.guardsOff.insert(.dopplerSlowing) })
        let fixed = try XCTUnwrap(fastDragRocking { $0.dopplerSlowingShare = 0 })
        XCTAssertEqual(ring, without, "the guard slowed a fast drag its swing rocked")
        XCTAssertGreaterThan(fixed, ring, "the share made no difference to the drag")
    }

    /// The same boat from 900 s dragging at 1.1 m/s (2 kn), its speed rocked 0.25 m/s either way
    /// by the swing every 8 s, falling from the start: near each trough the readings stand more
    /// than `doppler_slowing` below their fastest over 4 s, and the Doppler holds back for those
    /// seconds.
    private func slowDragRocking(_ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        firstRing(configure) { t in 1.1 + 0.25 * sin(2 * Double.pi * (t / 8 + 0.5)) }
    }

    /// A second the falling speed holds the Doppler back takes no evidence away from a fix beyond
    /// the radius (`doppler_slowing_holds`): the drag rings sooner than when that second spent
    /// what the Doppler had built, and sooner than on position alone.
    func testAFallingSpeedTakesNoEvidenceBack() throws {
        let ring = try XCTUnwrap(slowDragRocking(), "the drag never rang")
        let spent = try XCTUnwrap(slowDragRocking { $0.dopplerSlowingHolds = false })
        let alone = try XCTUnwrap(slowDragRocking { $0.dopplerThreshold = .infinity })
        XCTAssertLessThan(ring, spent, "a held second took back the evidence the Doppler had built")
        XCTAssertLessThan(ring, alone, "the speed did not hasten the drag")
    }
}
