import WatchCore
import XCTest

/// Holding means the fixes say the boat is inside: with the boat far outside the alert radius
/// the status is never Holding, not even for one fix, on any receiver and rate (issue 24, item 1).
/// The watch runs on its shipped defaults, as the box does.
final class NeverHoldingOutsideTests: XCTestCase {
    static let origin = Coordinate(latitude: 54.3413, longitude: 13.5065)

    struct Receiver {
        var name: String
        var rate: Double
        var mode: GPSReading.Mode
        var accuracy: Meters?
    }

    static let receivers = [
        Receiver(name: "10 Hz, 3D, accuracy 3 m", rate: 10, mode: .threeD, accuracy: 3),
        Receiver(name: "1 Hz, RMC only (2D, no accuracy)", rate: 1, mode: .twoD, accuracy: nil),
        Receiver(name: "1 Hz, 3D without accuracy", rate: 1, mode: .threeD, accuracy: nil),
    ]

    /// Feeds `seconds` of fixes `meters` east of the mark from `start`; returns the instants the
    /// verdict read Holding.
    static func holdingInstants(_ watch: inout Watch, _ r: Receiver, meters: Double, from start: Instant,
                                seconds: Double) -> [Double] {
        var held: [Double] = []
        let count = Int(seconds * r.rate)
        let boat = Geodesy.destination(from: origin, bearing: 90, distance: Meters(meters))
        for i in 0..<count {
            let t = start + .seconds(Double(i) / r.rate)
            let reading = GPSReading(mode: r.mode, position: boat, accuracy: r.accuracy, received: t)
            _ = watch.handle(.reading(reading), at: t)
            if watch.verdict == .holding { held.append((t - start).seconds) }
            if case .ringing = watch.alarm { break }
        }
        return held
    }

    func testAfterARestartTheBoat130MOutsideIsNeverHolding() {
        for r in Self.receivers {
            var watch = Watch()
            let start = Instant(seconds: 5000)
            _ = watch.restore(anchor: Self.origin, radius: 30, armed: true, ringingEpisode: nil, lastEpisode: 0, at: start)
            let held = Self.holdingInstants(&watch, r, meters: 130, from: start + .seconds(1), seconds: 60)
            XCTAssertEqual(held, [], "\(r.name): Holding at \(held.prefix(5)) s with the boat 100 m outside")
            XCTAssertEqual(watch.alarm.kind, .ringing, "\(r.name): never rang")
        }
    }

    func testAfterAGPSGapOf20SecondsTheBoat130MOutsideIsNeverHolding() {
        for r in Self.receivers {
            for gap in [20.0, 25, 60] {
                var watch = Watch()
                var t = Instant(seconds: 5000)
                // Lying at the mark, marked and armed, ten minutes of fixes.
                for _ in 0..<Int(600 * r.rate) {
                    _ = watch.handle(.reading(GPSReading(mode: r.mode, position: Self.origin, accuracy: r.accuracy, received: t)), at: t)
                    t = t + .seconds(1 / r.rate)
                    if watch.anchor == nil, (t - Instant(seconds: 5000)).seconds >= 10 {
                        _ = watch.handle(.decision(.mark(.here)), at: t)
                        _ = watch.handle(.armSwitch(on: true), at: t)
                    }
                }
                XCTAssertEqual(watch.verdict, .holding, "\(r.name): not holding at the mark")
                // The GPS is silent for `gap`, and the boat is then 130 m from the mark.
                _ = watch.handle(.tick, at: t + .seconds(gap / 2))
                let held = Self.holdingInstants(&watch, r, meters: 130, from: t + .seconds(gap), seconds: 60)
                XCTAssertEqual(held, [], "\(r.name), gap \(gap) s: Holding at \(held.prefix(5)) s with the boat 100 m outside")
                XCTAssertEqual(watch.alarm.kind, .ringing, "\(r.name), gap \(gap) s: never rang")
            }
        }
    }
}
