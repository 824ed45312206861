import Posix
import WatchCore

/// The smallest loop that runs the watch core per fix, for `valgrind --tool=callgrind`: a marked,
/// armed watch fed `fixes` readings of a 10 Hz receiver holding at anchor, each followed by the
/// tick the loop would make at the watch's deadline. Instructions per fix are the difference of
/// two runs of different lengths divided by their difference in fixes, so set-up cancels out.
/// `ANCHOR_COST_SPEED=1`: each reading also carries the speed and course the receiver reported
/// while still (the captures' velocity error), so the Doppler's bookkeeping runs on every fix.
/// `ANCHOR_COST_SWING=1`: the boat swings on its rode instead of lying still, 50 degrees either
/// way of east over 4 minutes, 30 m from the anchor give or take 2 m of the rode's stretch (and,
/// with the speed, its velocity in the reported speed and course), so the swing estimate's arc
/// fills many cells: the watch's cost on a swinging night.
enum CostDriver {
    /// Returns the watch's actions, and how many cells its swing estimate holds at the end.
    static func run(fixes: Int, sources: [NoiseCapture]) -> (actions: Int, cells: Int) {
        var rng = SplitMix64(seed: 42)
        let profile = ReceiverProfile(quality: .good, rate: 10, gapsPerHour: 0)
        let noise = NoiseTrack(seconds: fixes / 10 + 2, profile: profile, sources: sources, rng: &rng)
        let frame = LocalFrame(origin: Scenario.origin)
        let withSpeed = Process.environment("ANCHOR_COST_SPEED") == "1"
        let swinging = Process.environment("ANCHOR_COST_SWING") == "1"
        var watch = Watch()
        var actions = 0
        let anchor = Scenario.origin
        actions += watch.handle(.decision(.mark(.at(anchor))), at: .zero).count
        actions += watch.handle(.decision(.setRadius(60)), at: .zero).count
        actions += watch.handle(.armSwitch(on: true), at: .zero).count
        for i in 1...fixes {
            let t = Double(i) / 10
            let n = noise.at(t)
            // Where the boat lies (east, north of the anchor) and its velocity.
            var east = 30.0, north = 0.0, ve = 0.0, vn = 0.0
            if swinging {
                let w = 2 * Double.pi / 240, ws = 2 * Double.pi / 67
                let bearing = (90 + 50 * Math.sin(w * t)) * .pi / 180, turn = 50 * .pi / 180 * w * Math.cos(w * t)
                let d = 30 + 2 * Math.sin(ws * t), stretch = 2 * ws * Math.cos(ws * t)
                east = d * Math.sin(bearing)
                north = d * Math.cos(bearing)
                ve = stretch * Math.sin(bearing) + d * turn * Math.cos(bearing)
                vn = stretch * Math.cos(bearing) - d * turn * Math.sin(bearing)
            }
            var speed: Double?, track: Double?
            if withSpeed {
                let e = ve + n.velocityEast, v = vn + n.velocityNorth
                speed = (e * e + v * v).squareRoot()
                let course = atan2Degrees(e, v)
                track = course < 0 ? course + 360 : course
            }
            let reading = GPSReading(mode: .threeD, position: frame.coordinate(east: east + n.east, north: north + n.north),
                                     accuracy: Meters(n.eph), speed: speed, track: track, received: Instant(seconds: t))
            actions += watch.handle(.reading(reading), at: reading.received).count
        }
        return (actions, watch.swing.cellCount)
    }
}
