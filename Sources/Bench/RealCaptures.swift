import WatchCore

/// The real captures through every rule: each stationary capture as a negative (anchor at its
/// median position, the alert radius a 10 m margin around a boat that doesn't swing), and the
/// leaving-berth capture as the positive.
enum RealCaptures {
    struct Negative {
        var name: String
        var fixes: Int
        var seconds: Double
        /// Contender indices that rang.
        var rang: [Int]
    }

    struct Positive {
        var radius: Double
        /// When the track, smoothed over 10 s, first stands beyond the radius: the exit as
        /// well as the capture can tell it.
        var exitT: Double?
        var alarms: [Double?]
    }

    static let margin = 10.0

    static func negatives(_ library: NoiseLibrary, contenders: [Contender]) -> [Negative] {
        library.entries.map { entry in
            let c = entry.capture
            let anchor = medianPosition(c.readings)
            let offsets = offsets(c.readings, anchor: anchor)
            let rang = contenders.indices.filter {
                contenders[$0].firstAlarm(readings: c.readings, offsets: offsets, anchor: anchor, radius: margin) != nil
            }
            let span = (c.readings.last?.received.seconds ?? 0) - (c.readings.first?.received.seconds ?? 0)
            return Negative(name: entry.path, fixes: c.readings.count, seconds: span, rang: rang)
        }
    }

    /// Moored for six minutes, then under way: the anchor is the median of the first five
    /// minutes and the alert radius 20 m.
    static func positive(_ library: NoiseLibrary, contenders: [Contender]) -> Positive? {
        guard let c = library.leavingBerth else { return nil }
        let radius = 20.0
        let moored = c.readings.filter { $0.received.seconds < 300 }
        let anchor = medianPosition(moored)
        let offsets = offsets(c.readings, anchor: anchor)
        var exit: Double?
        var recent: [(Double, Double)] = []
        for (r, o) in zip(c.readings, offsets) {
            guard let o else { continue }
            let t = r.received.seconds
            recent.append((t, o.length))
            recent.removeAll { t - $0.0 > 10 }
            let smoothed = NoiseCapture.median(recent.map(\.1))
            if exit == nil, recent.count >= 5, smoothed > radius { exit = t }
        }
        let alarms = contenders.map { $0.firstAlarm(readings: c.readings, offsets: offsets, anchor: anchor, radius: radius) }
        return Positive(radius: radius, exitT: exit, alarms: alarms)
    }

    static func medianPosition(_ readings: [GPSReading]) -> Coordinate {
        let ps = readings.compactMap(\.position)
        guard let first = ps.first else { return Scenario.origin }
        let os = ps.map { Geodesy.offset(from: first, to: $0) }
        let e = NoiseCapture.median(os.map(\.east)), n = NoiseCapture.median(os.map(\.north))
        let d = (e * e + n * n).squareRoot()
        guard d > 0 else { return first }
        var bearing = atan2Degrees(e, n)
        if bearing < 0 { bearing += 360 }
        return Geodesy.destination(from: first, bearing: bearing, distance: Meters(d))
    }

    static func offsets(_ readings: [GPSReading], anchor: Coordinate) -> [Offset?] {
        readings.map { r in
            guard r.mode != .noFix, let p = r.position else { return nil }
            let o = Geodesy.offset(from: anchor, to: p)
            return Offset(east: o.east, north: o.north)
        }
    }
}
