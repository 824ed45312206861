import LightsAndSounds
@testable import WatchCore

/// Watch statuses for every state the ring draws, built directly: the renderer reads only the
/// status, so tests name the state rather than drive a watch into it.
enum Fixture {
    static let anchor = Coordinate(latitude: 43.2, longitude: 5.3)

    static func status(_ verdict: PositionVerdict, _ alarm: AlarmState, faults: [Fault] = []) -> WatchStatus {
        WatchStatus(
            verdict: verdict, alarm: alarm, anchor: verdict == .noAnchor ? nil : anchor, radius: 30,
            distance: nil, readingAge: nil, accuracy: nil,
            wontRing: Words.wontRing(verdict: verdict, alarm: alarm, now: .zero),
            faults: faults, faultSounding: faults.contains { $0.pushes })
    }

    static let gpsFault = Fault(.gpsLost, "GPS: no usable GPS reading for 1:00, can't judge a drag")

    /// A start instant far from zero, so nothing depends on the clock starting at 0.
    static let t0 = Instant(seconds: 10_000)

    static func settings(pixels: Int = 16) -> RingSettings {
        var s = RingSettings()
        s.pixelCount = pixels
        return s
    }
}
