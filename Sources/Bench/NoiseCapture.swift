import Posix
import Recordings
import WatchCore

/// One real stationary capture reduced to what the simulation borrows from it: its fixes'
/// residuals about their median (east, north, meters) and its reported accuracy, resampled to one
/// sample a second so bursts, multipath and slow wander keep their real time structure.
struct NoiseCapture {
    struct Sample {
        var east: Double
        var north: Double
        /// gpsd's eph for the fix (HDOP x 19 m for NMEA); nil when the capture doesn't say.
        var eph: Double?
        /// The velocity the stationary receiver reported (speed over ground along its course,
        /// east and north m/s): pure error. nil when the capture reports no speed and course.
        var velocity: Offset?
    }

    let name: String
    /// Runs of 1 Hz samples; a gap longer than `maxBridge` in the capture starts a new run.
    let runs: [[Sample]]
    /// The capture's own readings, as recorded (for the real-capture table).
    let readings: [GPSReading]
    let rate: Double

    static let maxBridge = 5.0

    /// Whether the capture reports speed and course (RMC, TPV speed/track) for its fixes.
    var hasVelocity: Bool { runs.contains { $0.contains { $0.velocity != nil } } }

    /// Whether the receiver holds its speed at zero while (nearly) still: 90% or more of its
    /// stationary speed reports are exactly 0 (static hold, as SiRF and configured u-blox do).
    var staticHold: Bool {
        let v = runs.flatMap { $0.compactMap(\.velocity) }
        guard !v.isEmpty else { return false }
        return Double(v.filter { $0.east == 0 && $0.north == 0 }.count) >= 0.9 * Double(v.count)
    }

    /// Root mean square of the reported speed (m/s), over the samples that carry one.
    var speedRMS: Double {
        let v = runs.flatMap { $0.compactMap(\.velocity) }
        guard !v.isEmpty else { return 0 }
        return (v.reduce(0) { $0 + $1.east * $1.east + $1.north * $1.north } / Double(v.count)).squareRoot()
    }

    var sampleCount: Int { runs.reduce(0) { $0 + $1.count } }

    /// 95th percentile of the residual's length, meters.
    var p95: Double {
        var r = runs.flatMap { $0.map { ($0.east * $0.east + $0.north * $0.north).squareRoot() } }
        guard !r.isEmpty else { return 0 }
        r.sort()
        return r[min(r.count - 1, Int(0.95 * Double(r.count)))]
    }

    /// Root mean square of the residual's length, meters.
    var rms: Double {
        let all = runs.flatMap { $0 }
        guard !all.isEmpty else { return 0 }
        return (all.reduce(0) { $0 + $1.east * $1.east + $1.north * $1.north } / Double(all.count)).squareRoot()
    }

    init?(name: String, log: RecordedLog) {
        self.name = name
        readings = log.readings
        let fixes = log.fixes.compactMap { f -> (t: Double, p: Coordinate, eph: Double?, v: Offset?)? in
            guard f.reading.mode != .noFix, let p = f.reading.position else { return nil }
            var v: Offset?
            if let speed = f.reading.speed, speed >= 0 {
                // A course of exactly 0 with speed 0 is what receivers print for "standing".
                let course = (f.reading.track ?? 0) * .pi / 180
                v = Offset(east: speed * Math.sin(course), north: speed * Math.cos(course))
            }
            return (f.t, p, f.reading.accuracy?.value, v)
        }
        guard fixes.count >= 10, let first = fixes.first else { return nil }
        let offsets = fixes.map { Geodesy.offset(from: first.p, to: $0.p) }
        let medianEast = NoiseCapture.median(offsets.map(\.east))
        let medianNorth = NoiseCapture.median(offsets.map(\.north))
        let span = fixes[fixes.count - 1].t - fixes[0].t
        rate = span > 0 ? Double(fixes.count - 1) / span : 1

        var runs: [[Sample]] = []
        var run: [Sample] = []
        var i = 0
        var t = fixes[0].t
        // Linear interpolation between neighbouring fixes at whole seconds of file time.
        while t <= fixes[fixes.count - 1].t {
            while i + 1 < fixes.count, fixes[i + 1].t < t { i += 1 }
            let a = fixes[i], b = fixes[min(i + 1, fixes.count - 1)]
            let gap = b.t - a.t
            if gap > NoiseCapture.maxBridge {
                if run.count >= 10 { runs.append(run) }
                run = []
                t = b.t
                i += 1
                continue
            }
            let k = gap > 0 ? min(max((t - a.t) / gap, 0), 1) : 0
            let oa = offsets[i], ob = offsets[min(i + 1, fixes.count - 1)]
            let eph: Double? = a.eph.map { ea in b.eph.map { ea + (($0) - ea) * k } ?? ea }
            // Velocity: the nearer fix's report (receivers smooth it already; no interpolation).
            let velocity = k < 0.5 ? (a.v ?? b.v) : (b.v ?? a.v)
            run.append(Sample(east: oa.east + (ob.east - oa.east) * k - medianEast,
                              north: oa.north + (ob.north - oa.north) * k - medianNorth, eph: eph, velocity: velocity))
            t += 1
        }
        if run.count >= 10 { runs.append(run) }
        guard !runs.isEmpty else { return nil }
        self.runs = runs
    }

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
