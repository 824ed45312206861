import WatchCore
import XCTest

/// A restart forgets the measured wander (issue 24, item 5): the watch learns it again from the
/// prior, and meanwhile judges conservatively: a boat 6 m beyond the radius with a wander of
/// about 2 m is never shown Holding after the restart, and rings once the wander is learnt again.
final class RestartNeverHoldingOutsideTests: XCTestCase {
    static let origin = Coordinate(latitude: 54.3413, longitude: 13.5065)

    static func triangle(_ x: Double) -> Double {
        let p = (x / 360).truncatingRemainder(dividingBy: 1)
        return p < 0.5 ? 4 * p - 1 : 3 - 4 * p
    }

    /// The distance `beyond` m past a 30 m radius, with about 2 m of wander.
    static func distance(_ i: Int, beyond: Double) -> Double {
        30 + beyond + 2 * triangle(Double(i) * 7.3) + 1 * triangle(Double(i) * 2.9)
    }

    func testAfterARestartABoat6MBeyondIsNeverHoldingAndRings() {
        var watch = Watch()
        let start = Instant(seconds: 5000)
        _ = watch.restore(anchor: Self.origin, radius: 30, armed: true, ringingEpisode: nil, lastEpisode: 0, at: start)
        var holding = 0, rangAfter: Int?
        for i in 0..<900 {
            let t = start + .seconds(Double(i + 1))
            let p = Geodesy.destination(from: Self.origin, bearing: 120, distance: Meters(Self.distance(i, beyond: 6)))
            _ = watch.handle(.reading(GPSReading(mode: .threeD, position: p, accuracy: 3, received: t)), at: t)
            if watch.verdict == .holding { holding += 1 }
            if case .ringing = watch.alarm { rangAfter = i + 1; break }
        }
        XCTAssertEqual(holding, 0, "Holding \(holding) s with the boat 6 m beyond the radius after a restart")
        XCTAssertNotNil(rangAfter, "never rang in 15 minutes")
    }
}
