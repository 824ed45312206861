import XCTest
import WatchCore
@testable import NMEA0183

/// The anchor as WPL. Each golden line is written field by field from the layout
/// (ddmm.mmmm, N/S, dddmm.mmmm, E/W, identifier), its checksum computed by pynmea2
/// (`pynmea2.NMEASentence.checksum`), not by the encoder.
final class WaypointTests: XCTestCase {
    func testTheAnchorAsAWaypoint() {
        XCTAssertEqual(Waypoint.wpl(talker: "II", at: Coordinate(latitude: 54.321, longitude: -10.5)),
                       "$IIWPL,5419.2600,N,01030.0000,W,ANCHOR*58\r\n")
    }

    func testSouthEastAndMinutesThatRoundUp() {
        // 0.0001 degrees (0.006 minutes) south of the equator and short of the antimeridian.
        XCTAssertEqual(Waypoint.wpl(talker: "II", at: Coordinate(latitude: -0.0001, longitude: 179.9999)),
                       "$IIWPL,0000.0060,S,17959.9940,E,ANCHOR*59\r\n")
        // 59.99999' rounds to the next whole degree, never to "60.0000" minutes.
        XCTAssertTrue(Waypoint.wpl(talker: "II", at: Coordinate(latitude: 10.9999999, longitude: 0)).hasPrefix("$IIWPL,1100.0000,N,00000.0000,E,"))
    }
}
