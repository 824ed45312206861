import WatchCore

/// Groups NMEA sentences into one fix per epoch (the sentences that share a UTC time), the way
/// a receiver reports a cycle: GGA gives quality and HDOP, RMC gives status, date, speed and
/// course, GLL gives status, GSA gives 2D/3D.
struct NMEAAssembler {
    private(set) var fixes: [RecordedLog.Fix] = []
    private var epoch: Epoch?
    private var day: Int?
    private var lastTimeOfDay: Double?
    private var dayOffset = 0.0
    private var firstTime: Double?
    private var lastT = 0.0
    /// The latest GSA mode, which applies to the epochs that follow it.
    private var gsaMode: GPSReading.Mode?
    private var gsaHDOP: Double?

    struct Epoch {
        var timeOfDay: Double
        var position: Coordinate?
        var valid: Bool?
        var hasAltitude = false
        var hdop: Double?
        /// GGA quality 2: differential corrections, which gpsd credits with a smaller error.
        var differential = false
        var speedKnots: Double?
        var track: Double?
    }

    mutating func take(_ s: NMEASentence) {
        switch s.type {
        case "GGA":
            guard let tod = s.timeOfDay(0) else { return }
            var e = open(tod)
            let quality = s.field(5).flatMap { Int($0) } ?? 0
            if quality > 0, let lat = s.angle(1, 2, degreeDigits: 2), let lon = s.angle(3, 4, degreeDigits: 3) {
                e.position = Coordinate.validated(latitude: lat, longitude: lon)
                e.valid = e.position != nil && (e.valid ?? true)
                e.hasAltitude = s.double(8) != nil
                e.hdop = s.double(7)
                e.differential = quality == 2
            } else {
                e.valid = false
            }
            epoch = e
        case "RMC":
            guard let tod = s.timeOfDay(0) else { return }
            if let d = s.date(8) { day = d }
            var e = open(tod)
            if s.field(1) == "A", let lat = s.angle(2, 3, degreeDigits: 2), let lon = s.angle(4, 5, degreeDigits: 3) {
                if e.position == nil { e.position = Coordinate.validated(latitude: lat, longitude: lon) }
                if e.valid == nil { e.valid = e.position != nil }
                e.speedKnots = s.double(6)
                e.track = s.double(7)
            } else if s.field(1) == "V" {
                e.valid = false
            }
            epoch = e
        case "GLL":
            guard let tod = s.timeOfDay(4) else { return }
            var e = open(tod)
            // Mode indicator (NMEA 2.3+): N means not valid whatever the status says.
            let ok = s.field(5) == "A" && s.field(6) != "N"
            if ok, let lat = s.angle(0, 1, degreeDigits: 2), let lon = s.angle(2, 3, degreeDigits: 3) {
                if e.position == nil { e.position = Coordinate.validated(latitude: lat, longitude: lon) }
                if e.valid == nil { e.valid = e.position != nil }
            } else if e.valid == nil {
                e.valid = false
            }
            epoch = e
        case "GSA":
            switch s.field(1) {
            case "2": gsaMode = .twoD
            case "3": gsaMode = .threeD
            case "1": gsaMode = .noFix
            default: break
            }
            gsaHDOP = s.double(15)
        default:
            break
        }
    }

    /// The epoch for `tod`, closing the previous one if the time moved on.
    private mutating func open(_ tod: Double) -> Epoch {
        if let e = epoch, e.timeOfDay == tod { return e }
        close()
        return Epoch(timeOfDay: tod)
    }

    mutating func finish() { close() }

    private mutating func close() {
        guard let e = epoch else { return }
        epoch = nil
        // Time-of-day wraps at midnight; logs without a date still advance.
        if let last = lastTimeOfDay, e.timeOfDay < last - 43_200 { dayOffset += 86_400 }
        lastTimeOfDay = e.timeOfDay
        let absolute = e.timeOfDay + dayOffset
        let start = firstTime ?? absolute
        firstTime = start
        // Receivers sometimes stamp a cycle a little behind the previous one (telit-he910 steps
        // back 0.3 s): the watch's clock never runs backwards, so neither does file time.
        let t = max(absolute - start, lastT)
        lastT = t
        let gpsTime = day.map { Double($0) * 86_400 + e.timeOfDay }
        let received = Instant(seconds: t)
        guard e.valid == true, let position = e.position else {
            fixes.append(.init(t: t, reading: .noFix(at: received, gpsTime: gpsTime)))
            return
        }
        var mode: GPSReading.Mode = e.hasAltitude ? .threeD : .twoD
        if let g = gsaMode, g != .noFix { mode = g }
        let hdop = e.hdop ?? gsaHDOP
        // What gpsd would report for this epoch (its eph from HDOP), through the box's own
        // translator, so a replayed NMEA log is judged as the box judges it through gpsd.
        let report = GPSDFix(
            mode: mode == .threeD ? 3 : 2, latitude: position.latitude, longitude: position.longitude,
            eph: hdop.map { $0 * (e.differential ? LogReader.hdopToEphDifferential : LogReader.hdopToEph) },
            speed: e.speedKnots.map { $0 * 1852 / 3600 }, track: e.track, time: gpsTime)
        let reading = report.reading(received: received)
        fixes.append(.init(t: t, reading: reading))
    }
}
