#if canImport(Glibc)
import Glibc
#endif
import WatchCore
import XCTest

final class GeodesyTests: XCTestCase {
    /// Vincenty's inverse formula on WGS84, written independently here as the reference.
    func vincenty(_ p: Coordinate, _ q: Coordinate) -> Double {
        let a = 6_378_137.0, f = 1 / 298.257_223_563, b = a * (1 - f)
        let rad = Double.pi / 180
        let L = (q.longitude - p.longitude) * rad
        let U1 = atan((1 - f) * tan(p.latitude * rad)), U2 = atan((1 - f) * tan(q.latitude * rad))
        let sinU1 = sin(U1), cosU1 = cos(U1), sinU2 = sin(U2), cosU2 = cos(U2)
        var lambda = L, sigma = 0.0, sinSigma = 0.0, cosSigma = 0.0, cos2SigmaM = 0.0, cosSqAlpha = 0.0
        for _ in 0..<200 {
            let sinL = sin(lambda), cosL = cos(lambda)
            sinSigma = sqrt(pow(cosU2 * sinL, 2) + pow(cosU1 * sinU2 - sinU1 * cosU2 * cosL, 2))
            if sinSigma == 0 { return 0 }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosL
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinL / sinSigma
            cosSqAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSqAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha
            let C = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
            let prev = lambda
            lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - prev) < 1e-13 { break }
        }
        let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
        let A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let dSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * A * (sigma - dSigma)
    }

    func testDistancesAreWithinATenthOfAPercentOfTheEllipsoidAtAnchoringRanges() {
        var worst = 0.0
        for lat in stride(from: -75.0, through: 75, by: 15) {
            for bearing in stride(from: 0.0, to: 360, by: 30) {
                for d in [5.0, 30, 100, 500, 2000] {
                    let p = Coordinate(latitude: lat, longitude: 13.5)
                    let q = Geodesy.destination(from: p, bearing: bearing, distance: Meters(d))
                    let reference = vincenty(p, q)
                    let ours = Geodesy.distance(p, q).value
                    worst = max(worst, abs(ours - reference) / reference)
                }
            }
        }
        XCTAssertLessThan(worst, 1e-3, "the issue's bar: 0.1%")
        XCTAssertLessThan(worst, 1e-5, "what the method actually achieves")
    }

    func testKnownDistanceOneMinuteOfLatitude() {
        // One minute of latitude at 54.34 N on WGS84 is 1855.4 m (meridional radius of curvature).
        let p = Coordinate(latitude: 54.34, longitude: 13.5)
        let q = Coordinate(latitude: 54.34 + 1.0 / 60, longitude: 13.5)
        XCTAssertEqual(Geodesy.distance(p, q).value, vincenty(p, q), accuracy: 0.01)
        XCTAssertEqual(Geodesy.distance(p, q).value, 1855.4, accuracy: 0.5)
    }

    func testAcrossTheAntimeridian() {
        let p = Coordinate(latitude: -17, longitude: 179.9999)
        let q = Coordinate(latitude: -17, longitude: -179.9999)
        XCTAssertEqual(Geodesy.distance(p, q).value, vincenty(p, Coordinate(latitude: -17, longitude: 180.0001)), accuracy: 0.01)
    }

    func testBearingAndDestinationRoundTrip() {
        let p = Coordinate(latitude: 54.3413, longitude: 13.5065)
        for b in stride(from: 0.0, to: 360, by: 45) {
            let q = Geodesy.destination(from: p, bearing: b, distance: 75)
            XCTAssertEqual(Geodesy.distance(p, q).value, 75, accuracy: 0.001)
            let back = Geodesy.bearing(from: p, to: q)
            XCTAssertEqual(min(abs(back - b), 360 - abs(back - b)), 0, accuracy: 0.01)
        }
    }

    func testMeanOfPoints() {
        let p = Coordinate(latitude: 54.3413, longitude: 13.5065)
        let pts = [0.0, 90, 180, 270].map { Geodesy.destination(from: p, bearing: $0, distance: 10) }
        XCTAssertEqual(Geodesy.distance(Geodesy.mean(pts)!, p).value, 0, accuracy: 0.001)
    }

    func testCoordinatesFromOutsideAreValidated() {
        XCTAssertNil(Coordinate.validated(latitude: .nan, longitude: 0))
        XCTAssertNil(Coordinate.validated(latitude: 91, longitude: 0))
        XCTAssertNil(Coordinate.validated(latitude: 0, longitude: .infinity))
        XCTAssertNotNil(Coordinate.validated(latitude: -90, longitude: 180))
    }
}
