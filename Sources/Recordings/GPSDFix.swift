import WatchCore

/// One gpsd report (a TPV), with every field left unset or NaN already turned into nil, and
/// the one translator from it to a `GPSReading`. Both ways into the watch build one:
/// `run` from what libgps decoded (`LibGPSConnection`), `replay` and the benchmark from a
/// recorded log (`GPSDJSONAssembler` for gpsd's JSON, `NMEAAssembler` for NMEA 0183 with gpsd's
/// own HDOP to eph factors). So the accuracy gate, the 2D/3D rule and the speed and course
/// checks the benchmark judges are the box's own (issue 12, hole 6).
public struct GPSDFix: Hashable, Sendable {
    /// gpsd's mode: 0 not seen yet, 1 no fix, 2 2D, 3 3D.
    public var mode: Int
    public var latitude: Double?
    public var longitude: Double?
    /// Estimated horizontal position error, meters.
    public var eph: Double?
    /// Longitude and latitude errors, meters.
    public var epx: Double?
    public var epy: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees true.
    public var track: Double?
    /// The receiver's UTC time, seconds since 1970.
    public var time: Double?
    /// The device that sent it, as gpsd names it.
    public var device: String?

    public init(
        mode: Int, latitude: Double? = nil, longitude: Double? = nil, eph: Double? = nil,
        epx: Double? = nil, epy: Double? = nil, speed: Double? = nil, track: Double? = nil,
        time: Double? = nil, device: String? = nil
    ) {
        self.mode = mode
        self.latitude = latitude.finite
        self.longitude = longitude.finite
        self.eph = eph.finite
        self.epx = epx.finite
        self.epy = epy.finite
        self.speed = speed.finite
        self.track = track.finite
        self.time = time.finite
        self.device = device
    }

    /// The horizontal accuracy: gpsd's eph, else the length of (epx, epy) as gpsd itself would
    /// combine them. Negative values are a receiver's way of saying "unknown".
    public var accuracy: Meters? {
        if let eph, eph >= 0 { return Meters(eph) }
        if let epx, let epy, epx >= 0, epy >= 0 { return Meters((epx * epx + epy * epy).squareRoot()) }
        return nil
    }

    /// The reading the watch sees. A 2D or 3D mode without a valid coordinate is no fix: the
    /// mode alone is not a position.
    public func reading(received: Instant) -> GPSReading {
        let position = latitude.flatMap { lat in
            longitude.flatMap { lon in Coordinate.validated(latitude: lat, longitude: lon) }
        }
        guard mode >= 2, let position else {
            return .noFix(at: received, gpsTime: time)
        }
        return GPSReading(
            mode: mode >= 3 ? .threeD : .twoD, position: position, accuracy: accuracy,
            speed: speed.flatMap { $0 >= 0 ? $0 : nil },
            track: track.flatMap { (0..<360.000001).contains($0) ? $0 : nil },
            gpsTime: time, received: received)
    }
}

extension Optional where Wrapped == Double {
    fileprivate var finite: Double? { flatMap { $0.isFinite ? $0 : nil } }
}
