import Posix
@testable import Appliance
import Drivers
import LightsAndSounds
import WatchCore
import XCTest

/// How far beyond the alert radius this receiver rings, said once its wander is measured, and
/// true; and the radius advice and the swing's suggestion giving one number (issue 26, "Words
/// that match what happened"). The real box (`Box`, its snapshot writer) in simulated time, read
/// by the real `anchor-alert status`.
final class RingDistanceTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory("ring-distance") }
    override func tearDown() { removeTree(dir) }

    func box(_ settings: WatchSettings = WatchSettings(), sources: [Pollable] = []) -> Box {
        let writer = SnapshotWriter(directory: dir, interval: .seconds(30), fitted: [.buzzer, .journal])
        return Box(watch: Watch(settings: settings), sources: sources,
                   buzzerAndSiren: BuzzerAndSiren(buzzer: DemoCommand.DemoBuzzer(), siren: nil, book: DesignedSounds()),
                   log: nil, wall: { 0 }, parts: [writer])
    }

    func status() -> [String] {
        let r = runProgram([applianceBinary, "status", "--runtime-dir", dir, "--config", "/dev/null"])
        XCTAssertEqual(r.code, 0, r.err)
        return r.out.split(separator: "\n").map(String.init)
    }

    /// A receiver that wanders about 3 m each way (a deterministic scatter), the boat lying 12 m
    /// from the mark: the ring distance is said after 5 minutes (not 12), and a slow drag then
    /// rings where it said, give or take the wander, or once every fix has stood beyond the
    /// radius as long as it said (persistence).
    func testTheRingDistanceIsSaidWithinFiveMinutesAndIsWhereItRings() throws {
        let b = box()
        let origin = Coordinate(latitude: 54.3413, longitude: 13.5065)
        var seed: UInt64 = 42
        func scatter() -> Double {
            var sum = 0.0
            for _ in 0..<4 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                sum += Double(seed >> 11) / Double(1 << 53) - 0.5
            }
            return sum * 5  // about 2.9 m standard deviation
        }
        // From this machine's monotonic time, which the readers judge the snapshot's writer by.
        var now = MonotonicClock.now()
        var outFor = 0.0
        func fix(east: Double) {
            now = now + .seconds(1)
            let d = east + scatter()
            // "Stays beyond it over S s" counts as the words are meant (Docs/verdict.md,
            // "Persistence"): a second beyond adds one, a second inside takes two back.
            outFor = d > 30 ? outFor + 1 : max(0, outFor - 2)
            let p = Geodesy.destination(from: origin, bearing: 90, distance: Meters(d))
            _ = b.handle(.reading(GPSReading(mode: .threeD, position: p, accuracy: 4, received: now)), now: now)
            b.refresh(now: now)
        }
        for _ in 0..<10 { fix(east: 0) }
        _ = b.handle(.decision(.mark(.at(origin))), now: now)
        for _ in 0..<240 { fix(east: 12) }
        XCTAssertFalse(status().contains { $0.hasPrefix("Rings once the boat stands about ") }, "4 minutes in: not measured yet")
        for _ in 0..<70 { fix(east: 12) }
        let said = try XCTUnwrap(status().first { $0.hasPrefix("Rings once the boat stands about ") }, "\(status())")
        // "Rings once the boat stands about B m beyond the alert radius, R m from the anchor, or
        // stays beyond it over S s: GPS wanders about W m"
        let numbers = said.split(whereSeparator: { !$0.isNumber }).compactMap { Double($0) }
        XCTAssertTrue(numbers.count == 4 || numbers.count == 5, said)
        guard numbers.count >= 4 else { return }
        let (beyond, at, after, wander) = (numbers[0], numbers[1], numbers[2], numbers[3])
        XCTAssertEqual(at, 30 + beyond, said)
        _ = b.handle(.armSwitch(on: true), now: now)
        // A slow drag: 3 m a minute outward.
        var east = 12.0
        while b.watch.alarm.kind != .ringing, east < 120 {
            east += 0.05
            fix(east: east)
        }
        XCTAssertEqual(b.watch.alarm.kind, .ringing)
        // Never before the line it said, unless the fixes stood beyond the radius as long as it
        // said (net of twice the seconds inside); after it by no more than the wander (the
        // evidence adds up while the boat moves on: measured 4.9 m further at 3 m a minute).
        XCTAssertTrue(east >= at - 1 || outFor >= after, "said \(said); rang with the boat at \(east) m, beyond for \(outFor) s net")
        XCTAssertLessThanOrEqual(east - at, wander, "said \(said); rang with the boat at \(east) m")
    }

    /// A receiver that holds still to a meter and, every 20 minutes, runs 16 m straight out and
    /// back over 40 s (a raised cosine): on position alone a fix beyond the radius counts in at
    /// least half that reach, so the ring distance said must be the excursions', with them named;
    /// a slow drag then rings where it said. Said from the wander alone (about 2 m), the line
    /// stood 3 m beyond the radius while the box rang about 11 m beyond.
    func testTheRingDistanceCountsTheReceiversQuickExcursions() throws {
        let b = box()
        let origin = Coordinate(latitude: 54.3413, longitude: 13.5065)
        var now = MonotonicClock.now()
        var i = 0
        var outFor = 0.0
        func fix(east: Double) {
            now = now + .seconds(1)
            i += 1
            let d = east + (i % 2 == 0 ? 1 : -1)
            // "Stays beyond it over S s" counts as the words are meant (Docs/verdict.md,
            // "Persistence"): a second beyond adds one, a second inside takes two back.
            outFor = d > 30 ? outFor + 1 : max(0, outFor - 2)
            let p = Geodesy.destination(from: origin, bearing: 90, distance: Meters(d))
            _ = b.handle(.reading(GPSReading(mode: .threeD, position: p, accuracy: 4, received: now)), now: now)
            b.refresh(now: now)
        }
        for _ in 0..<10 { fix(east: 0) }
        _ = b.handle(.decision(.mark(.at(origin))), now: now)
        // An hour at 12 m from the mark; the excursions start once the level is measured.
        for s in 0..<3600 {
            let into = Double(s % 1200), out = s >= 400 && into < 40 ? 16 * (1 - cos(2 * .pi * into / 40)) / 2 : 0
            fix(east: 12 + out)
        }
        let said = try XCTUnwrap(status().first { $0.hasPrefix("Rings once the boat stands about ") }, "\(status())")
        // "Rings once the boat stands about B m beyond the alert radius, R m from the anchor, or
        // stays beyond it over S s: GPS wanders about W m, and has run E m out and back"
        let numbers = said.split(whereSeparator: { !$0.isNumber }).compactMap { Double($0) }
        XCTAssertEqual(numbers.count, 5, "the excursions are not named: \(said)")
        guard numbers.count >= 4 else { return }
        let (beyond, at, after, wander) = (numbers[0], numbers[1], numbers[2], numbers[3])
        XCTAssertEqual(at, 30 + beyond, said)
        if numbers.count == 5 { XCTAssertEqual(numbers[4], 16, accuracy: 2, said) }
        _ = b.handle(.armSwitch(on: true), now: now)
        var east = 12.0
        while b.watch.alarm.kind != .ringing, east < 120 {
            east += 0.05
            fix(east: east)
        }
        XCTAssertEqual(b.watch.alarm.kind, .ringing)
        // At 3 m a minute the boat stays beyond the radius long before it reaches the line:
        // it rings as said, a few seconds after every fix has stood beyond as long as it said.
        if east < at - 1 {
            XCTAssertGreaterThanOrEqual(outFor, after, "said \(said); rang with the boat at \(east) m, beyond for \(outFor) s net")
            XCTAssertLessThanOrEqual(outFor, after + 15, "said \(said); rang with the boat at \(east) m, beyond for \(outFor) s net")
        }
        XCTAssertLessThanOrEqual(east - at, wander, "said \(said); rang with the boat at \(east) m")
    }

    /// The swing settles about the mark while the receiver wanders too far for a radius just
    /// beyond the swing: the radius advice and the swing's suggestion are one number, on one line.
    func testTheRadiusAdviceAndTheSwingsSuggestionAreOneNumber() throws {
        var script = BoatScript.swing
        script.noise = 2
        // From this machine's monotonic time, which the readers judge the snapshot's writer by.
        let start = MonotonicClock.now()
        let gps = SimulatedGPS(.script(script), start: start)
        let b = box(sources: [gps])
        var now = start
        var marked = false
        var both: (Meters, Meters)?
        while now < start + .seconds(4 * 3600) {
            if !marked, now >= start + .seconds(30) {
                _ = b.handle(.decision(.setRadius(31)), now: now)
                _ = b.handle(.decision(.mark(.at(script.origin))), now: now)
                marked = true
                XCTAssertNotNil(b.watch.anchor)
            }
            let next = min(b.nextDeadline(now: now) ?? now + .seconds(1), now + .seconds(1))
            now = max(next, now + .milliseconds(1))
            b.serve([], now: now)
            if let a = b.watch.reliableRadius, let s = b.watch.swingSuggestedRadius, b.watch.swingOffer == nil {
                both = (a, s)
                break
            }
        }
        b.refresh(now: now)
        let w = b.watch
        let (advice, swing) = try XCTUnwrap(both, "no advice and swing suggestion together in 4 hours: reliable \(String(describing: w.reliableRadius)), swing \(String(describing: w.swing.estimate)), own \(String(describing: w.swingSuggestedRadius)), offer \(String(describing: w.swingOffer)), wander \(String(describing: w.status(at: now).wander))")
        XCTAssertEqual(advice, swing, "one number on one screen")
        let lines = status()
        let radiusLines = lines.filter { $0.contains("alert radius of") || $0.hasPrefix("Alert radius from the swing") }
        XCTAssertEqual(radiusLines.count, 1, "\(lines)")
        XCTAssertTrue(radiusLines.first?.contains("\(Int(swing.value)) m") ?? false, "\(radiusLines)")
    }
}
