import Glibc
import WatchCore
import XCTest

/// A slow drag that stands beyond the alert radius rings, however far the receiver's quick
/// excursions have reached (Docs/verdict.md, "Persistence"; issue 24). On position alone a fix
/// beyond the radius counts only past the deadband in at least half the excursions' reach, so a
/// boat a couple of meters beyond, on a receiver whose excursions ran 12 m out, never counts. A
/// drag stays out; the excursions came back: once every steady fix has stood beyond the radius
/// for longer than the longest quick outing the receiver has shown (and `persistFloor`), the
/// fixes count from the radius itself.
final class SlowDragPersistsTests: XCTestCase {
    /// The boat 30 m from the anchor with a 40 m radius, its fixes 1 m either side each second, no
    /// speed reported, and every 20 minutes from the second minute an excursion straight away from
    /// the anchor, out and back over 80 s (a raised cosine, 12 m). From 3,700 s the boat drags out
    /// at 0.1 m/s to 42 m and stays there: from 3,810 s every fix stands beyond the radius, 1 to 3 m
    /// (the excursions' reach over `wanderTail` is 6 m). Returns when it rang, nil if never in two
    /// hours.
    /// With `restartAt`, the box restarts at that second, before the drag: a new watch restored
    /// from the last swing memory the watch handed on to be kept (the journal's swing record),
    /// after `keep` has had its way with it.
    private func firstRing(_ configure: (inout WatchSettings) -> Void = { _ in }, restartAt: Int? = nil,
                           keep: (inout SwingEstimator.Memory) -> Void = { _ in }) -> Double? {
        var settings = WatchSettings()
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 40
            configure(&s)
            settings = s
        }
        h.anchored(armed: true)
        for i in 0..<7200 {
            if i == restartAt {
                let kept = h.actions.compactMap { a -> SwingEstimator.Memory? in
                    if case .swingLearnt(let m) = a { m } else { nil }
                }.last
                guard var memory = kept, let anchor = h.watch.anchor else {
                    XCTFail("no swing memory was handed on to be kept before the restart")
                    return nil
                }
                keep(&memory)
                h.watch = Watch(settings: settings)
                _ = h.watch.restore(anchor: anchor, radius: settings.radius, armed: true, ringingEpisode: nil,
                                    lastEpisode: 0, farthest: nil, swing: memory, at: h.now)
            }
            let into = Double((i - 120) % 1200), length = 80.0
            var out = 0.0
            if i >= 120, i < 3700, into < length { out = 12 * (1 - cos(2 * .pi * into / length)) / 2 }
            if i >= 3700 { out = min(0.1 * Double(i - 3700), 12) }
            let d = 30 + out + (i % 2 == 0 ? 1 : -1)
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: d), accuracy: 5, received: h.now)))
            if case .ringing = h.watch.alarm { return Double(i) }
            h.wait(1)
        }
        return nil
    }

    /// It rings, but only after the run beyond the radius has outlasted the receiver's longest
    /// quick outing (about 70 s of the 80 s excursions stand above where the boat lies).
    func testASlowDragThatStaysOutRingsOnceItOutlastsTheOutings() throws {
        let ring = try XCTUnwrap(firstRing(), "a boat standing beyond the radius never rang")
        XCTAssertGreaterThanOrEqual(ring, 3810 + 60, "it rang before the run outlasted the receiver's quick outings")
        XCTAssertLessThanOrEqual(ring, 3810 + 100, "it rang long after the run outlasted the outings")
    }

    /// Without persistence (its floor out of reach) the same boat never rings: the readings above
    /// do test the path.
    func testWithoutPersistenceTheStandingBoatNeverRings() {
        XCTAssertNil(firstRing { $0.persistFloor = .seconds(100_000) }, "the boat rang on the deadband alone")
    }

    /// A restart between the excursions and the drag: the longest outing comes back with the
    /// wander (the journal's swing record), so persistence waits for it as before; a restart
    /// that forgot it would wait its 45 s floor alone, shorter than the receiver's outings.
    func testARestartKeepsTheLongestOutingPersistenceWaitsFor() throws {
        let ring = try XCTUnwrap(firstRing(restartAt: 3500), "a boat standing beyond the radius never rang after a restart")
        XCTAssertGreaterThanOrEqual(ring, 3810 + 60, "after a restart it rang before the run outlasted the receiver's quick outings")
        XCTAssertLessThanOrEqual(ring, 3810 + 100, "after a restart it rang long after the run outlasted the outings")
    }

    /// A memory kept without the outing (a journal of version 5): persistence waits for the
    /// longest a quick outing can be (`wanderOutingSpan`), never its floor alone.
    func testARestartFromAMemoryWithoutTheOutingWaitsForTheLongestOne() throws {
        let ring = try XCTUnwrap(firstRing(restartAt: 3500, keep: { $0.wander?.reach = nil; $0.wander?.outingLongest = nil }),
                                 "a boat standing beyond the radius never rang after a restart")
        XCTAssertGreaterThanOrEqual(ring, 3810 + 90, "it rang before the longest outing a quick one can be")
    }
}
