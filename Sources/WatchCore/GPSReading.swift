/// One report from the GPS, with its validity explicit. Readers (gpsd, NMEA, replay) build these
/// at the edge, so no NaN, unset field or "gone mad" value reaches the watch as a number.
public struct GPSReading: Hashable, Sendable {
    public enum Mode: String, Hashable, Sendable {
        case noFix = "no fix"
        case twoD = "2D"
        case threeD = "3D"
    }

    public var mode: Mode
    /// nil whenever `mode` is `.noFix`.
    public var position: Coordinate?
    /// Horizontal accuracy estimate (gpsd's eph, or derived from epx/epy or HDOP); nil if unknown.
    public var accuracy: Meters?
    /// Speed over ground, m/s, where reported.
    public var speed: Double?
    /// Course over ground, degrees true, where reported.
    public var track: Double?
    /// The receiver's own UTC time, seconds since 1970, where reported.
    public var gpsTime: Double?
    /// When the box received it, on its monotonic clock.
    public var received: Instant

    public init(
        mode: Mode, position: Coordinate?, accuracy: Meters? = nil, speed: Double? = nil,
        track: Double? = nil, gpsTime: Double? = nil, received: Instant
    ) {
        self.mode = mode
        self.position = mode == .noFix ? nil : position
        self.accuracy = accuracy.flatMap { $0.value.isFinite && $0.value >= 0 ? $0 : nil }
        self.speed = speed.flatMap { $0.isFinite ? $0 : nil }
        self.track = track.flatMap { $0.isFinite ? $0 : nil }
        self.gpsTime = gpsTime.flatMap { $0.isFinite ? $0 : nil }
        self.received = received
    }

    /// A reading with no fix, for "the receiver answers but has no position".
    public static func noFix(at received: Instant, gpsTime: Double? = nil) -> GPSReading {
        GPSReading(mode: .noFix, position: nil, gpsTime: gpsTime, received: received)
    }
}
