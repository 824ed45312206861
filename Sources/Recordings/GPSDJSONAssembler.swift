import WatchCore

/// Reads gpsd's JSON TPV reports (a `gpspipe -w` log or gpsd's regression .chk files).
struct GPSDJSONAssembler {
    private(set) var fixes: [RecordedLog.Fix] = []
    private var firstTime: Double?
    private var lastT = 0.0

    /// Returns the reason when the line is refused; nil when taken or not a TPV.
    mutating func take(_ line: Substring) -> String? {
        guard let value = try? JSONValue.parse(String(line)) else { return "malformed JSON" }
        guard value["class"]?.string == "TPV" else { return nil }
        let time = value["time"]?.string.flatMap(CivilTime.parseISO8601)
        // Without a time (gpsd's no-fix reports) the report belongs just after the previous one.
        let t: Double
        if let time {
            let start = firstTime ?? time
            firstTime = start
            t = max(time - start, lastT)
        } else {
            t = lastT
        }
        lastT = t
        let received = Instant(seconds: t)
        let modeNumber = value["mode"]?.int ?? 0
        guard modeNumber >= 2, let lat = value["lat"]?.double, let lon = value["lon"]?.double,
            let position = Coordinate.validated(latitude: lat, longitude: lon)
        else {
            fixes.append(.init(t: t, reading: .noFix(at: received, gpsTime: time)))
            return nil
        }
        var accuracy = value["eph"]?.double
        if accuracy == nil, let x = value["epx"]?.double, let y = value["epy"]?.double {
            accuracy = (x * x + y * y).squareRoot()
        }
        let reading = GPSReading(
            mode: modeNumber >= 3 ? .threeD : .twoD, position: position, accuracy: accuracy.map { Meters($0) },
            speed: value["speed"]?.double, track: value["track"]?.double, gpsTime: time, received: received)
        fixes.append(.init(t: t, reading: reading))
        return nil
    }
}
