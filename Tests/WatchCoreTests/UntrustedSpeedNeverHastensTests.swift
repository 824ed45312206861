import Glibc
import WatchCore
import XCTest

/// An untrusted receiver's speed never hastens a ring (Docs/verdict.md, "The Doppler"; issue 24
/// item 3). A receiver whose reported speed moves with its position (a filter that carries both:
/// old SiRF and MediaTek chips, phone-grade modules) shows it at anchor: its position goes out
/// and comes back, and its speed with it. The watch learns that reach and trusts the speed only
/// for radial speeds well beyond it; such a receiver's next excursion past the alert radius is
/// left to position alone, which its wander does not ring.
final class UntrustedSpeedNeverHastensTests: XCTestCase {
    /// Two hours at 1 Hz: the boat at 30 m from the anchor with a 40 m radius, wandering 2 m
    /// either side each second (its own speed 0.02 m/s, which the positions don't show), and
    /// every 20 minutes from the second minute an excursion straight away from the anchor: the
    /// position goes out 14 m and back over 30 s (a raised cosine), the reported speed along
    /// with it (its whole rate of change, up to 1.26 m/s). The excursions' top stands 0 to 4 m
    /// beyond the radius, too little and too brief for position alone to ring on.
    /// `sizes` and `lengths` give each excursion's size and length in turn (14 m over 30 s for
    /// those they don't list); `radius` the alert radius.
    private func firstRing(seconds: Int = 7200, excursionAt starts: [Int] = Array(stride(from: 120, to: 7200, by: 1200)),
                           sizes: [Double] = [], lengths: [Double] = [], radius: Meters = 40,
                           _ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        var h = Harness.armed(radius: radius, configure)
        for i in 0..<seconds {
            var out = 0.0, rate = 0.0
            let n = starts.lastIndex(where: { $0 <= i })
            let size = n.map { $0 < sizes.count ? sizes[$0] : 14 } ?? 0, length = n.map { $0 < lengths.count ? lengths[$0] : 30 } ?? 0
            if let n, Double(i - starts[n]) < length {
                let into = Double(i - starts[n])
                out = size * (1 - cos(2 * .pi * into / length)) / 2
                rate = size * .pi / length * sin(2 * .pi * into / length)
            }
            let d = 30 + out + (i % 2 == 0 ? 2 : -2)
            let own = 0.4 * sin(1.3 * Double(i))
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: d), accuracy: 5,
                                       speed: abs(own + rate), track: own + rate >= 0 ? 0 : 180, received: h.now)))
            if case .ringing = h.watch.alarm { return Double(i) }
            h.wait(1)
        }
        return nil
    }

    /// Each test here holds with the rule on the readings' slowing taken out too
    /// (`WatchGuard.dopplerSlowing`): an excursion that turns trips that rule as well, and the
    /// trust gate and the reach must hold these readings alone.
    func testAnUntrustedReceiversSpeedNeverHastensARing() {
        XCTAssertNil(firstRing(), "an excursion whose speed moves with the position rang")
        XCTAssertNil(firstRing(slowingOff), "an excursion whose speed moves with the position rang, the slowing rule out")
    }

    /// The same readings with the trust gate taken out (`WatchGuard.dopplerTrust`, the slowing
    /// rule with it): the speed hastens an excursion into a ring, so the readings above do test
    /// the gate; and with no speed at all nothing rings (position alone is quiet on them).
    func testTheExcursionsRingOnlyWithTheirSpeedTrusted() throws {
        let ring = try XCTUnwrap(firstRing { $0.guardsOff.formUnion([.dopplerTrust, .dopplerSlowing]) }, "the excursions never rang with the speed trusted")
        XCTAssertGreaterThan(ring, 120)
        XCTAssertNil(firstRing { $0.dopplerThreshold = .infinity }, "position alone rang")
    }

    /// The speed's reach is kept while the anchor is down: how a receiver couples its speed to
    /// its position is the receiver's, and its excursions come in any direction, so hours can pass
    /// before the next one runs along the line again. Three excursions in the first hour teach
    /// the reach; the next comes 7 h later, and its speed is no more evidence than theirs was.
    func testTheSpeedsReachIsKeptWhileTheAnchorIsDown() {
        let starts = [120, 1320, 2520, 28_000]
        XCTAssertNil(firstRing(seconds: 28_200, excursionAt: starts), "an excursion 7 h after the last one seen rang")
        XCTAssertNil(firstRing(seconds: 28_200, excursionAt: starts, slowingOff), "an excursion 7 h after the last one seen rang, the slowing rule out")
    }

    /// The same readings with the reach fading over 6 h (`dopplerReachSpan`, the slowing rule
    /// out) ring at the late excursion, so the readings above do test the reach kept; position
    /// alone is quiet on them.
    func testALateExcursionRingsOnlyWithTheReachFaded() throws {
        let starts = [120, 1320, 2520, 28_000]
        let ring = try XCTUnwrap(firstRing(seconds: 28_200, excursionAt: starts) { $0.dopplerReachSpan = .seconds(21_600); slowingOff(&$0) },
                                 "the late excursion never rang with the reach faded")
        XCTAssertGreaterThan(ring, 28_000)
        XCTAssertNil(firstRing(seconds: 28_200, excursionAt: starts) { $0.dopplerThreshold = .infinity }, "position alone rang")
    }

    /// The speed's reach is the fastest excursion the receiver has shown so far, and the next
    /// can go further: the Doppler counts only beyond `doppler_trust_margin` (2.3) times it.
    /// Three excursions of 14 m over 30 s teach the reach (0.52 m/s, the speed's own noise
    /// with them); 40 minutes later one of 36 m over 50 s (its smoothed speed up to 2.1 times
    /// the reach, its readings up to 2.3 m/s) runs 10 m beyond a 58 m radius and back. Held-out
    /// filter speed 3518 of the benchmark rang on such an excursion, its smoothed speed 2.24
    /// times the reach (Docs/benchmarks.md).
    func testAnExcursionTwiceAsFastAsAnySeenNeverRings() {
        XCTAssertNil(fasterExcursionRing(), "an excursion 2.1 times as fast as any seen rang")
        XCTAssertNil(fasterExcursionRing(slowingOff), "an excursion 2.1 times as fast as any seen rang, the slowing rule out")
    }

    /// The same readings ring with the margin at 2 (the slowing rule out), and position alone is
    /// quiet on them: they test the margin.
    func testTheFasterExcursionRingsOnlyWithTheMarginAtTwo() throws {
        let ring = try XCTUnwrap(fasterExcursionRing { $0.dopplerTrustMargin = 2; slowingOff(&$0) }, "the faster excursion never rang with the margin at 2")
        XCTAssertGreaterThan(ring, 4920)
        XCTAssertNil(fasterExcursionRing { $0.dopplerThreshold = .infinity }, "position alone rang")
    }

    private func slowingOff(_ s: inout WatchSettings) { s.guardsOff.insert(.dopplerSlowing) }

    /// The three excursions of 14 m and, at 4,920 s, the one of 36 m over 50 s, at a 58 m radius.
    private func fasterExcursionRing(_ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        firstRing(excursionAt: [120, 1320, 2520, 4920], sizes: [14, 14, 14, 36], lengths: [30, 30, 30, 50], radius: 58, configure)
    }
}
