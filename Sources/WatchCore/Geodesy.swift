/// Distances and bearings on the WGS84 ellipsoid, for anchoring ranges.
///
/// Method: a local tangent plane at the mean latitude, scaled by the ellipsoid's meridional (M)
/// and prime-vertical (N) radii of curvature. Against Vincenty's inverse solution the error is
/// below 1e-5 relative up to 2 km (see GeodesyTests), far inside the 0.1% the watch needs, and it
/// costs a handful of flops per fix on a Pi Zero.
public enum Geodesy {
    /// WGS84 semi-major axis and flattening.
    public static let a = 6_378_137.0
    public static let f = 1.0 / 298.257_223_563
    static let e2 = f * (2 - f)

    static func radii(atLatitude lat: Double) -> (meridional: Double, primeVertical: Double) {
        let s = sinDeg(lat)
        let w2 = 1 - e2 * s * s
        let n = a / w2.squareRoot()
        let m = a * (1 - e2) / (w2 * w2.squareRoot())
        return (m, n)
    }

    /// East and north offsets of `b` from `a`, in meters.
    public static func offset(from a: Coordinate, to b: Coordinate) -> (east: Double, north: Double) {
        let lat0 = (a.latitude + b.latitude) / 2
        let (m, n) = radii(atLatitude: lat0)
        var dLon = b.longitude - a.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let north = (b.latitude - a.latitude) * .pi / 180 * m
        let east = dLon * .pi / 180 * n * cosDeg(lat0)
        return (east, north)
    }

    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Meters {
        let (e, n) = offset(from: a, to: b)
        return Meters((e * e + n * n).squareRoot())
    }

    /// Initial bearing from `a` to `b`, degrees true in [0, 360).
    public static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        let (e, n) = offset(from: a, to: b)
        var deg = atan2Deg(e, n)
        if deg < 0 { deg += 360 }
        return deg
    }

    /// The point `distance` away from `origin` on `bearing` (degrees true).
    public static func destination(from origin: Coordinate, bearing: Double, distance: Meters) -> Coordinate {
        let north = distance.value * cosDeg(bearing)
        let east = distance.value * sinDeg(bearing)
        // Two passes: the radii depend on the mean latitude, which depends on the answer.
        var lat = origin.latitude
        for _ in 0..<2 {
            let (m, _) = radii(atLatitude: (origin.latitude + lat) / 2)
            lat = origin.latitude + north / m * 180 / .pi
        }
        let (_, n) = radii(atLatitude: (origin.latitude + lat) / 2)
        var lon = origin.longitude + east / (n * cosDeg((origin.latitude + lat) / 2)) * 180 / .pi
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// The mean of nearby points (a few meters apart), in the tangent plane of the first.
    public static func mean(_ points: [Coordinate]) -> Coordinate? {
        guard let first = points.first else { return nil }
        var e = 0.0, n = 0.0
        for p in points {
            let o = offset(from: first, to: p)
            e += o.east
            n += o.north
        }
        let k = Double(points.count)
        let d = ((e / k) * (e / k) + (n / k) * (n / k)).squareRoot()
        guard d > 0 else { return first }
        return destination(from: first, bearing: bearing(east: e, north: n), distance: Meters(d))
    }

    static func bearing(east: Double, north: Double) -> Double {
        var deg = atan2Deg(east, north)
        if deg < 0 { deg += 360 }
        return deg
    }
}
