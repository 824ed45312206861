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
    /// With `skip`, no fix comes in the seconds it names; with `dip`, the fix of the seconds it
    /// names stands 1 m inside the radius.
    private func firstRing(_ configure: (inout WatchSettings) -> Void = { _ in }, restartAt: Int? = nil,
                           keep: (inout SwingEstimator.Memory) -> Void = { _ in },
                           skip: (Int) -> Bool = { _ in false }, dip: (Int) -> Bool = { _ in false }) -> Double? {
        var settings = WatchSettings()
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 40
            // The floor below the outing's share (`persistMargin` x about 70 s), so that what the
            // tests see is the outing's term, not the floor.
            s.persistFloor = .seconds(20)
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
            let d = dip(i) ? 39 : 30 + out + (i % 2 == 0 ? 1 : -1)
            if skip(i) {
                h.wait(1)
                continue
            }
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: d), accuracy: 5, received: h.now)))
            if case .ringing = h.watch.alarm { return Double(i) }
            h.wait(1)
        }
        return nil
    }

    /// It rings, but only after the run beyond the radius has outlasted `persistMargin` (0.75) of
    /// the receiver's longest quick outing (about 70 s of the 80 s excursions stand above where
    /// the boat lies): about 52 s, where the 20 s floor alone rang 27 s after.
    func testASlowDragThatStaysOutRingsOnceItOutlastsTheOutings() throws {
        let ring = try XCTUnwrap(firstRing(), "a boat standing beyond the radius never rang")
        XCTAssertGreaterThanOrEqual(ring, 3810 + 45, "it rang before the run outlasted the receiver's quick outings")
        XCTAssertLessThanOrEqual(ring, 3810 + 90, "it rang long after the run outlasted the outings")
    }

    /// Without persistence (its floor out of reach) the same boat never rings: the readings above
    /// do test the path.
    func testWithoutPersistenceTheStandingBoatNeverRings() {
        XCTAssertNil(firstRing { $0.persistFloor = .seconds(100_000) }, "the boat rang on the deadband alone")
    }

    /// A restart between the excursions and the drag: the longest outing comes back with the
    /// wander (the journal's swing record), so persistence waits for it as before; a restart
    /// that forgot it would wait its floor alone (20 s here), shorter than the receiver's outings.
    func testARestartKeepsTheLongestOutingPersistenceWaitsFor() throws {
        let ring = try XCTUnwrap(firstRing(restartAt: 3500), "a boat standing beyond the radius never rang after a restart")
        XCTAssertGreaterThanOrEqual(ring, 3810 + 45, "after a restart it rang before the run outlasted the receiver's quick outings")
        XCTAssertLessThanOrEqual(ring, 3810 + 90, "after a restart it rang long after the run outlasted the outings")
    }

    /// A memory kept without the outing (a journal of version 5): persistence waits for its
    /// share of the longest a quick outing can be (`wanderOutingSpan`, 90 s: 67.5 s), longer
    /// than the learnt outing's (about 52 s), never its floor alone.
    func testARestartFromAMemoryWithoutTheOutingWaitsForTheLongestOne() throws {
        let ring = try XCTUnwrap(firstRing(restartAt: 3500, keep: { $0.wander?.reach = nil; $0.wander?.outingLongest = nil }),
                                 "a boat standing beyond the radius never rang after a restart")
        XCTAssertGreaterThanOrEqual(ring, 3810 + 65, "it rang before its share of the longest outing a quick one can be")
    }

    /// A drag's fixes are not always all there: a receiver that drops two fixes in every 20 s
    /// (a gap of 3 s, within `persistBridge`) keeps the run, and the drag rings within a few
    /// seconds of the same drag with every fix. A run that started again after each gap (the
    /// bridge at 1.5 s) would never reach the outing's length.
    func testAShortGapInTheFixesKeepsTheRun() throws {
        let whole = try XCTUnwrap(firstRing(), "the drag with every fix never rang")
        let gappy = try XCTUnwrap(firstRing(skip: { $0 >= 3700 && $0 % 20 < 2 }), "the drag with short gaps never rang")
        XCTAssertLessThanOrEqual(gappy, whole + 20, "two missing fixes in every 20 s held the ring back past the run's length")
    }

    /// Silence is not evidence: a fix after a gap counts one second of the run, not the gap.
    /// With one fix in every 4 s (gaps within `persistBridge`), the run needs as many fixes
    /// beyond the radius as a whole run has seconds, so it rings about 4 times later than the
    /// drag with every fix (3,988 s against 3,861): no sooner than 3 x 45 s after the boat stands
    /// beyond. Counting the gaps' seconds, it rang with the whole drag.
    func testTheSecondsOfAGapAreNotCountedAsBeyond() throws {
        let sparse = try XCTUnwrap(firstRing(skip: { $0 >= 3700 && $0 % 4 != 0 }), "a boat standing beyond with a fix every 4 s never rang")
        XCTAssertGreaterThanOrEqual(sparse, 3810 + 3 * 45, "the seconds of the gaps counted as seconds beyond the radius")
    }

    /// A fix that dips inside takes its own second from the run (`persistGive`), as an up/down
    /// counter does, and does not start it again: one fix in every 15 s 1 m inside the radius
    /// (the receiver's noise on a drag's first minutes) holds the ring back by a few seconds. A
    /// run that started again at each dip would never outlast the outings.
    func testAFixDippingInsideTakesOnlyItsOwnSecond() throws {
        let whole = try XCTUnwrap(firstRing(), "the drag with every fix beyond never rang")
        let dipping = try XCTUnwrap(firstRing(dip: { $0 >= 3830 && $0 % 15 == 0 }), "the drag with a fix inside every 15 s never rang")
        XCTAssertLessThanOrEqual(dipping, whole + 20, "a fix inside every 15 s held the ring back past the run's length")
    }
}
