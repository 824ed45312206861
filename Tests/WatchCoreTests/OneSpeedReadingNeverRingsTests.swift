import WatchCore
import XCTest

/// One reading's speed never moves the deadband: the Doppler hastens only a speed that persists
/// over several readings, is plausible for a boat on a rode, and agrees with the track (the
/// change of the distance over the same span) (Docs/verdict.md, "The Doppler"). Issue 24 item 2:
/// a boat lying steady 0.9 wander beyond a 30 m radius for an hour rang 5 s after one reading of
/// 10 m/s (or 30 m/s) away.
final class OneSpeedReadingNeverRingsTests: XCTestCase {
    /// The shipped defaults, a 30 m radius, armed; then an hour at 1 Hz of a boat whose distance
    /// alternates 2 m either side of 31.8 m (its wander about 2 m, its level 0.9 wander beyond
    /// the radius), its receiver's own small speed (0.02 m/s, which its positions don't show).
    private func anHourBeyond() -> Harness {
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 30
        }
        h.anchored(armed: true)
        for i in 0..<3600 {
            h.send(.reading(place(i, speed: 0.02, at: h.now)))
            h.wait(1)
        }
        return h
    }

    private func place(_ i: Int, speed: Double, at now: Instant) -> GPSReading {
        GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 31.8 + (i % 2 == 0 ? 2 : -2)),
                   accuracy: 5, speed: speed, track: 0, received: now)
    }

    /// One reading of `stray` m/s away from the anchor, then two minutes as before: never rings.
    private func assertOneReadingNeverRings(_ stray: Double, file: StaticString = #filePath, line: UInt = #line) {
        var h = anHourBeyond()
        XCTAssertEqual(h.watch.alarm, .armed, "an hour 0.9 wander beyond rings on nothing", file: file, line: line)
        XCTAssertTrue(h.watch.noise.speedIndependent(h.watch.settings), "the receiver's speed is its own", file: file, line: line)
        for i in 0..<120 {
            h.send(.reading(place(3600 + i, speed: i == 0 ? stray : 0.02, at: h.now)))
            h.wait(1)
            XCTAssertEqual(h.watch.alarm, .armed, "\(stray) m/s once: rang \(i) s after it", file: file, line: line)
            if h.watch.alarm != .armed { return }
        }
    }

    func testOneReadingOf3MetersASecondNeverRings() { assertOneReadingNeverRings(3) }
    func testOneReadingOf10MetersASecondNeverRings() { assertOneReadingNeverRings(10) }
    func testOneReadingOf30MetersASecondNeverRings() { assertOneReadingNeverRings(30) }

    /// Three readings of 2 m/s in a row (each plausible) with the track standing still: the
    /// speed disagrees with the positions and never rings either.
    func testASpeedTheTrackDoesNotShowNeverRings() {
        var h = anHourBeyond()
        for i in 0..<120 {
            h.send(.reading(place(3600 + i, speed: i < 3 ? 2 : 0.02, at: h.now)))
            h.wait(1)
        }
        XCTAssertEqual(h.watch.alarm, .armed)
    }

    /// The same boat dragging away at 1 m/s with the speed reported: the Doppler still hastens
    /// (it rings sooner than with no speed reported).
    func testADragTheTrackShowsStillHastens() throws {
        func ring(speed: Bool) -> Double? {
            var h = anHourBeyond()
            for i in 0..<300 {
                let d = 31.8 + Double(i) + (i % 2 == 0 ? 2 : -2)
                h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: d), accuracy: 5,
                                           speed: speed ? 1 : nil, track: speed ? 0 : nil, received: h.now)))
                if case .ringing = h.watch.alarm { return Double(i) }
                h.wait(1)
            }
            return nil
        }
        let fast = try XCTUnwrap(ring(speed: true)), slow = try XCTUnwrap(ring(speed: false))
        XCTAssertLessThan(fast, slow)
    }
}

/// A boat creeping out at 0.12 m/s (its speed reported, slower than the Doppler's minimum) rings
/// on position alone; one plausible reading of 1.5 m/s among its speeds doesn't hasten it.
final class OneSpeedReadingNeverHastensTests: XCTestCase {
    private func ring(stray: Bool) -> Double? {
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 30
        }
        h.anchored(armed: true)
        for i in 0..<3600 {
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 20 + (i % 2 == 0 ? 2 : -2)),
                                       accuracy: 5, speed: 0.02, track: 0, received: h.now)))
            h.wait(1)
        }
        for i in 0..<600 {
            let d = 28 + 0.12 * Double(i) + (i % 2 == 0 ? 2 : -2)
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: d), accuracy: 5,
                                       speed: stray && i == 40 ? 1.5 : 0.12, track: 0, received: h.now)))
            if case .ringing = h.watch.alarm { return Double(i) }
            h.wait(1)
        }
        return nil
    }

    func testOnePlausibleReadingDoesNotHasten() throws {
        let with = try XCTUnwrap(ring(stray: true)), without = try XCTUnwrap(ring(stray: false))
        XCTAssertEqual(with, without, "one reading of 1.5 m/s changed when it rang")
    }
}

/// A speed no boat on a rode can have (5 m/s away from the anchor, for several readings in a row,
/// while the track moves out 1.5 m/s for 4 s, within what the track agrees with) is no speed:
/// it never hastens.
final class ImplausibleSpeedNeverHastensTests: XCTestCase {
    func testFiveMetersASecondAwayForFourReadingsNeverRings() {
        var h = Harness { s in
            s = WatchSettings()
            s.radius = 30
        }
        h.anchored(armed: true)
        for i in 0..<3600 {
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 31.8 + (i % 2 == 0 ? 2 : -2)),
                                       accuracy: 5, speed: 0.02, track: 0, received: h.now)))
            h.wait(1)
        }
        XCTAssertTrue(h.watch.noise.speedIndependent(h.watch.settings), "the receiver's speed is its own")
        // Out 1.5 m/s for 4 s and back: the track agrees with a speed away, the speed says 5 m/s.
        let excursion: [Double] = [1.5, 3, 4.5, 6, 4.5, 3, 1.5, 0]
        for i in 0..<120 {
            let out = i < excursion.count ? excursion[i] : 0
            let away = i < 4
            h.send(.reading(GPSReading(mode: .threeD, position: Harness.at(east: 0, north: 31.8 + out + (i % 2 == 0 ? 2 : -2)),
                                       accuracy: 5, speed: away ? 5 : 0.02, track: 0, received: h.now)))
            h.wait(1)
            XCTAssertEqual(h.watch.alarm, .armed, "5 m/s for 4 readings: rang \(i) s after the first")
            if h.watch.alarm != .armed { return }
        }
    }
}
