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
    private func firstRing(seconds: Int = 7200, excursionAt starts: [Int] = Array(stride(from: 120, to: 7200, by: 1200)),
                           _ configure: (inout WatchSettings) -> Void = { _ in }) -> Double? {
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 40
            configure(&s)
        }
        h.anchored(armed: true)
        for i in 0..<seconds {
            let size = 14.0, length = 30.0
            var out = 0.0, rate = 0.0
            if let start = starts.last(where: { $0 <= i }), Double(i - start) < length {
                let into = Double(i - start)
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

    func testAnUntrustedReceiversSpeedNeverHastensARing() {
        XCTAssertNil(firstRing(), "an excursion whose speed moves with the position rang")
    }

    /// The same readings with the trust gate taken out (`WatchGuard.dopplerTrust`): the speed
    /// hastens an excursion into a ring, so the readings above do test the gate; and with no
    /// speed at all nothing rings (position alone is quiet on them).
    func testTheExcursionsRingOnlyWithTheirSpeedTrusted() throws {
        let ring = try XCTUnwrap(firstRing { $0.guardsOff.insert(.dopplerTrust) }, "the excursions never rang with the speed trusted")
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
    }

    /// The same readings with the reach fading over 6 h (`dopplerReachSpan`) ring at the late
    /// excursion, so the readings above do test the reach kept; position alone is quiet on them.
    func testALateExcursionRingsOnlyWithTheReachFaded() throws {
        let starts = [120, 1320, 2520, 28_000]
        let ring = try XCTUnwrap(firstRing(seconds: 28_200, excursionAt: starts) { $0.dopplerReachSpan = .seconds(21_600) },
                                 "the late excursion never rang with the reach faded")
        XCTAssertGreaterThan(ring, 28_000)
        XCTAssertNil(firstRing(seconds: 28_200, excursionAt: starts) { $0.dopplerThreshold = .infinity }, "position alone rang")
    }
}
