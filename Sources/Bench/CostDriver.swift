import Posix
import WatchCore

/// The smallest loop that runs the watch core per fix, for `valgrind --tool=callgrind`: a marked,
/// armed watch fed `fixes` readings of a 10 Hz receiver holding at anchor, each followed by the
/// tick the loop would make at the watch's deadline. Instructions per fix are the difference of
/// two runs of different lengths divided by their difference in fixes, so set-up cancels out.
/// `ANCHOR_COST_SPEED=1`: each reading also carries the speed and course the receiver reported
/// while still (the captures' velocity error), so the Doppler's bookkeeping runs on every fix.
enum CostDriver {
    static func run(fixes: Int, sources: [NoiseCapture]) -> Int {
        var rng = SplitMix64(seed: 42)
        let profile = ReceiverProfile(quality: .good, rate: 10, gapsPerHour: 0)
        let noise = NoiseTrack(seconds: fixes / 10 + 2, profile: profile, sources: sources, rng: &rng)
        let frame = LocalFrame(origin: Scenario.origin)
        let withSpeed = Process.environment("ANCHOR_COST_SPEED") == "1"
        var watch = Watch()
        var actions = 0
        let anchor = Scenario.origin
        actions += watch.handle(.decision(.mark(.at(anchor))), at: .zero).count
        actions += watch.handle(.decision(.setRadius(60)), at: .zero).count
        actions += watch.handle(.armSwitch(on: true), at: .zero).count
        for i in 1...fixes {
            let t = Double(i) / 10
            let n = noise.at(t)
            var speed: Double?, track: Double?
            if withSpeed {
                speed = (n.velocityEast * n.velocityEast + n.velocityNorth * n.velocityNorth).squareRoot()
                let course = atan2Degrees(n.velocityEast, n.velocityNorth)
                track = course < 0 ? course + 360 : course
            }
            let reading = GPSReading(mode: .threeD, position: frame.coordinate(east: 30 + n.east, north: n.north),
                                     accuracy: Meters(n.eph), speed: speed, track: track, received: Instant(seconds: t))
            actions += watch.handle(.reading(reading), at: reading.received).count
        }
        return actions
    }
}
