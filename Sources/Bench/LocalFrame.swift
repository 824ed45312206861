import WatchCore

/// East/north meters around an origin, turned into WGS84 coordinates with the same tangent-plane
/// radii the watch uses (`Geodesy`), so a simulated 40 m is 40 m to the watch too.
struct LocalFrame {
    let origin: Coordinate
    private let metersPerDegreeNorth: Double
    private let metersPerDegreeEast: Double

    init(origin: Coordinate) {
        self.origin = origin
        let north = Geodesy.destination(from: origin, bearing: 0, distance: 1000)
        let east = Geodesy.destination(from: origin, bearing: 90, distance: 1000)
        metersPerDegreeNorth = 1000 / (north.latitude - origin.latitude)
        metersPerDegreeEast = 1000 / (east.longitude - origin.longitude)
    }

    func coordinate(east: Double, north: Double) -> Coordinate {
        Coordinate(latitude: origin.latitude + north / metersPerDegreeNorth,
                   longitude: origin.longitude + east / metersPerDegreeEast)
    }
}
