import Posix

/// A boat lying to its anchor in shifting wind, for one simulated run. Positions are east/north
/// meters of the GPS antenna from the anchor as set.
///
/// The physics, kept to what moves the antenna:
/// - The rode's horizontal reach is `reach = sqrt(rode^2 - (depth + freeboard)^2)`; chain sag
///   keeps the bow short of it in light air, and wind pulls it out: the bow stands at
///   `stretch x reach`, with `stretch` approaching 1 as the wind rises and lagging it by ~10 s
///   (the boat surges back on the rode in a gust).
/// - The bow lies downwind of the anchor, on an arc that follows the wind direction; the wind
///   veers and backs slowly (an Ornstein-Uhlenbeck wander of tens of degrees over the night),
///   and on some nights a front swings it by 60 to 180 degrees within 10 to 30 minutes.
/// - The boat sails on its anchor: it yaws across the wind with a period of 40 to 120 s and an
///   amplitude that grows with the wind, and sheers, so the antenna (`bowToGPS` aft of the bow)
///   swings on a wider arc than the bow.
/// - Gusts: the wind speed carries a fast OU gust factor (20 s) and a slow one (10 minutes).
/// The swing circle, the farthest the antenna can be from the anchor, is `reach + bowToGPS`.
struct SwingModel {
    let depth: Double
    let rode: Double
    let freeboard: Double
    let bowToGPS: Double
    let meanWind: Double
    let yawAmplitude: Double
    let yawPeriod: Double
    var reach: Double { (rode * rode - (depth + freeboard) * (depth + freeboard)).squareRoot() }
    var swingRadius: Double { reach + bowToGPS }

    private var rng: SplitMix64
    private var t = 0.0
    private var windDirection: Double
    private var directionWander = 0.0
    private var frontAt: Double?
    private var frontShift = 0.0
    private var frontDuration = 1200.0
    private var gustFast = 0.0
    private var gustSlow = 0.0
    private var stretch: Double
    private var yawPhase: Double
    private var anchorEast = 0.0
    private var anchorNorth = 0.0
    /// When the anchor broke out, and how fast it drags (m/s).
    private var breakout: (at: Double, speed: Double)?

    init(rng: inout SplitMix64, nightSeconds: Double) {
        var r = rng.fork(0x5717)
        depth = r.uniform(3, 12)
        rode = depth * r.uniform(4, 6)
        freeboard = r.uniform(0.8, 1.5)
        bowToGPS = r.uniform(2, 10)
        meanWind = r.uniform(6, 28)
        yawAmplitude = r.uniform(10, 30) * .pi / 180
        yawPeriod = r.uniform(40, 120)
        windDirection = r.uniform(0, 2 * .pi)
        if r.chance(0.4) {
            frontAt = r.uniform(0, nightSeconds)
            frontShift = (r.chance(0.5) ? 1 : -1) * r.uniform(60, 180) * .pi / 180
            frontDuration = r.uniform(600, 1800)
        }
        stretch = 0.8
        yawPhase = r.uniform(0, 2 * .pi)
        self.rng = r
    }

    /// A boat of given build on a given night: `front` swings the wind by `shift` radians over
    /// `duration` s from `at`. The wind's own wander, gusts and yaw phase come from `rng`.
    init(rng: inout SplitMix64, depth: Double, rode: Double, freeboard: Double, bowToGPS: Double, meanWind: Double,
         yawAmplitude: Double, yawPeriod: Double, windDirection: Double, front: (at: Double, shift: Double, duration: Double)?) {
        var r = rng.fork(0x5718)
        self.depth = depth
        self.rode = rode
        self.freeboard = freeboard
        self.bowToGPS = bowToGPS
        self.meanWind = meanWind
        self.yawAmplitude = yawAmplitude
        self.yawPeriod = yawPeriod
        self.windDirection = windDirection
        if let front {
            frontAt = front.at
            frontShift = front.shift
            frontDuration = front.duration
        }
        stretch = 0.8
        yawPhase = r.uniform(0, 2 * .pi)
        self.rng = r
    }

    mutating func breakOut(at time: Double, speedKnots: Double) {
        breakout = (time, speedKnots * 1852 / 3600)
    }

    /// A drag under way changes pace (0: the anchor caught again; the rode stays taut).
    mutating func changeDrag(speedKnots: Double) {
        if let b = breakout { breakout = (b.at, speedKnots * 1852 / 3600) }
    }

    /// Advances by `dt` seconds and returns the antenna's position.
    mutating func step(_ dt: Double) -> (east: Double, north: Double) {
        t += dt
        // Wind direction: slow wander (sigma 25 degrees, 30 min) plus the front's ramp.
        let tauDir = 1800.0, sigmaDir = 25 * Double.pi / 180
        directionWander += -directionWander / tauDir * dt + sigmaDir * (2 * dt / tauDir).squareRoot() * rng.gaussian()
        var front = 0.0
        if let at = frontAt, t > at { front = frontShift * min((t - at) / frontDuration, 1) }
        let direction = windDirection + directionWander + front
        // Gusts.
        gustFast += -gustFast / 20 * dt + 0.25 * (2 * dt / 20).squareRoot() * rng.gaussian()
        gustSlow += -gustSlow / 600 * dt + 0.2 * (2 * dt / 600).squareRoot() * rng.gaussian()
        let wind = max(0, meanWind * (1 + gustFast + gustSlow))
        // The rode straightens as the wind rises; a dragging boat keeps it taut.
        var target = 1 - 0.4 * Math.exp(-wind / 12)
        let dragging = breakout.map { t >= $0.at } ?? false
        if dragging { target = 1 }
        stretch += (target - stretch) * min(dt / 10, 1)
        stretch = min(stretch, 1)
        // Sailing on the anchor: more yaw in more wind; phase speed jitters.
        yawPhase += 2 * .pi / yawPeriod * dt * (1 + 0.3 * rng.gaussian() * min(dt, 1))
        let amplitude = yawAmplitude * min(0.5 + wind / 20, 1.5)
        let yaw = amplitude * Math.sin(yawPhase)
        let sheer = 0.6 * amplitude * Math.cos(yawPhase)
        if let b = breakout, t >= b.at {
            anchorEast += b.speed * dt * Math.sin(direction)
            anchorNorth += b.speed * dt * Math.cos(direction)
        }
        let bowBearing = direction + yaw
        let bowEast = anchorEast + stretch * reach * Math.sin(bowBearing)
        let bowNorth = anchorNorth + stretch * reach * Math.cos(bowBearing)
        let aft = bowBearing + sheer
        return (bowEast + bowToGPS * Math.sin(aft), bowNorth + bowToGPS * Math.cos(aft))
    }
}
