import Drivers
import WatchCore
import XCTest

/// The pure edges of the gpsd driver: raw-line classification and TPV-to-reading rules.
final class GPSDParsingTests: XCTestCase {
    let tpv = GPSDFix(mode: 3, latitude: 1, longitude: 2)

    func testDeviceDeactivationIsReadFromTheRawLine() {
        let gone = GPSDMessage.parse(GPSDLine(#"{"class":"DEVICE","path":"/dev/ttyACM0","activated":0}"#)) { self.tpv }
        XCTAssertEqual(gone, .device(path: "/dev/ttyACM0", active: false))
        let back = GPSDMessage.parse(GPSDLine(#"{"class":"DEVICE","path":"/dev/pts/1","activated":"2026-11-30T03:48:43.067Z"}"#)) { self.tpv }
        XCTAssertEqual(back, .device(path: "/dev/pts/1", active: true))
        let spaced = GPSDMessage.parse(GPSDLine(#"{"class": "DEVICE", "path": "/dev/x", "activated": 0}"#)) { self.tpv }
        XCTAssertEqual(spaced, .device(path: "/dev/x", active: false))
    }

    func testDevicesCountsReceivers() {
        XCTAssertEqual(GPSDMessage.parse(GPSDLine(#"{"class":"DEVICES","devices":[]}"#)) { self.tpv }, .devices(count: 0))
        let two = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/a"},{"class":"DEVICE","path":"/dev/b"}]}"#
        XCTAssertEqual(GPSDMessage.parse(GPSDLine(two)) { self.tpv }, .devices(count: 2))
    }

    func testClassesAndGarbage() {
        XCTAssertEqual(GPSDMessage.parse(GPSDLine(#"{"class":"VERSION","release":"3.22","rev":"3.22"}"#)) { self.tpv }, .version(release: "3.22"))
        XCTAssertEqual(GPSDMessage.parse(GPSDLine(#"{"class":"TPV","mode":3}"#)) { self.tpv }, .tpv(tpv))
        XCTAssertEqual(GPSDMessage.parse(GPSDLine(#"{"class":"SKY"}"#)) { self.tpv }, .other(className: "SKY"))
        XCTAssertNil(GPSDMessage.parse(GPSDLine("$GPGGA,123519,4807.038,N*47")) { self.tpv })
        XCTAssertNil(GPSDMessage.parse(GPSDLine(#"{"class":"#)) { self.tpv }, "truncated")
        XCTAssertNil(GPSDMessage.parse(GPSDLine("")) { self.tpv })
    }

    func testUnsetAndNaNFieldsNeverBecomeNumbers() {
        let f = GPSDFix(mode: 3, latitude: 50, longitude: 4, eph: .nan, epx: .nan, epy: 3,
                        speed: .nan, track: .infinity, time: .nan)
        let r = f.reading(received: Instant(seconds: 7))
        XCTAssertEqual(r.mode, .threeD)
        XCTAssertNil(r.accuracy, "epy alone is no horizontal accuracy")
        XCTAssertNil(r.speed)
        XCTAssertNil(r.track)
        XCTAssertNil(r.gpsTime)
        XCTAssertEqual(r.received, Instant(seconds: 7))
    }

    func testAccuracyIsEphElseFromEpxEpy() {
        XCTAssertEqual(GPSDFix(mode: 3, eph: 4.5, epx: 30, epy: 40).accuracy, Meters(4.5))
        XCTAssertEqual(GPSDFix(mode: 3, epx: 3, epy: 4).accuracy, Meters(5))
        XCTAssertNil(GPSDFix(mode: 3, eph: -1).accuracy)
    }

    func testAModeWithoutAValidPositionIsNoFix() {
        XCTAssertEqual(GPSDFix(mode: 3, latitude: .nan, longitude: 2).reading(received: .zero).mode, .noFix)
        XCTAssertEqual(GPSDFix(mode: 2, latitude: 91, longitude: 2).reading(received: .zero).mode, .noFix)
        XCTAssertEqual(GPSDFix(mode: 1, latitude: 1, longitude: 2).reading(received: .zero).position, nil)
        XCTAssertEqual(GPSDFix(mode: 0).reading(received: .zero).mode, .noFix)
        let twoD = GPSDFix(mode: 2, latitude: -33.9, longitude: 151.2, speed: -1, track: 400).reading(received: .zero)
        XCTAssertEqual(twoD.mode, .twoD)
        XCTAssertNil(twoD.speed, "a negative speed is unknown")
        XCTAssertNil(twoD.track, "a course beyond 360 is unknown")
    }

    func testFaultWords() {
        XCTAssertEqual(GPSDWords.notRunning(host: "localhost", port: 2947), "GPS: gpsd is not running")
        XCTAssertEqual(GPSDWords.notRunning(host: "10.0.0.5", port: 2947), "GPS: gpsd is not running at 10.0.0.5:2947")
        XCTAssertEqual(GPSDWords.clock(offset: 3 * 3600 + 5), "Clock: system clock is 3 hours behind GPS time")
        XCTAssertEqual(GPSDWords.clock(offset: -400), "Clock: system clock is 6 minutes ahead of GPS time")
        for text in [GPSDWords.refused, GPSDWords.restarted, GPSDWords.unplugged, GPSDWords.noReceiver,
                     GPSDWords.reportsStopped, GPSDWords.frozen] {
            XCTAssertTrue(text.hasPrefix("GPS: "), text)
            XCTAssertFalse(text.contains("\u{2014}"), "no em dashes")
        }
    }
}
