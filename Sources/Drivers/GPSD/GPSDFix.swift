import Recordings

/// The driver's name for a gpsd report; the type and its translation to a `GPSReading` live in
/// Recordings, shared with `replay` (one translator).
public typealias GPSDFix = Recordings.GPSDFix
