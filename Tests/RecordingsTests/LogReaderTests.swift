#if canImport(Glibc)
import Glibc
#endif
import Recordings
import WatchCore
import XCTest

final class LogReaderTests: XCTestCase {
    /// The shared data sits beside the checkout: ../shared/data/gps from the package root.
    static var dataDirectory: String {
        let here = #filePath
        let root = here.components(separatedBy: "/Tests/").first ?? "."
        return root + "/../shared/data/gps"
    }

    func read(_ text: String) throws -> RecordedLog { try LogReader.read(bytes: Array(text.utf8)) }

    static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for b in body.utf8 { sum ^= b }
        let hex = String(sum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
    }

    func testChecksumsAreVerified() {
        let good = Self.sentence("GPRMC,085000.000,A,5420.4767,N,01330.3921,E,0.08,34.35,300613,,,A")
        XCTAssertNoThrow(try NMEASentence.parse(good[...]).get())
        var bad = good
        bad.removeLast()
        bad += "0"
        XCTAssertEqual(NMEASentence.parse(bad[...]).failureValue, .badChecksum)
        XCTAssertEqual(NMEASentence.parse("$GPRMC,1,2,3"[...]).failureValue, .noChecksum)
        XCTAssertEqual(NMEASentence.parse("hello"[...]).failureValue, .notASentence)
    }

    func testRMCBecomesATwoDFixWithSpeedTrackAndTime() throws {
        let log = try read(Self.sentence("GPRMC,085000.000,A,5420.4767,N,01330.3921,E,1.00,34.35,300613,,,A") + "\n")
        let r = try XCTUnwrap(log.fixes.first?.reading)
        XCTAssertEqual(r.mode, .twoD)
        XCTAssertEqual(r.position?.latitude ?? 0, 54 + 20.4767 / 60, accuracy: 1e-9)
        XCTAssertEqual(r.position?.longitude ?? 0, 13 + 30.3921 / 60, accuracy: 1e-9)
        XCTAssertEqual(r.speed ?? 0, 1852.0 / 3600, accuracy: 1e-9)
        XCTAssertEqual(r.track, 34.35)
        // 2013-06-30 08:50:00 UTC
        XCTAssertEqual(r.gpsTime, 1_372_582_200)
        XCTAssertNil(r.accuracy, "RMC alone says nothing about accuracy")
    }

    func testGGAAndGSAOfOneEpochMakeOneThreeDFixWithGpsdsAccuracy() throws {
        let text = [
            Self.sentence("GNGGA,101500.00,4500.0000,S,17030.0000,W,1,08,1.5,12.0,M,,M,,"),
            Self.sentence("GNGSA,A,3,01,02,03,04,,,,,,,,,2.0,1.5,1.3"),
            Self.sentence("GNRMC,101500.00,A,4500.0000,S,17030.0000,W,0.0,,010124,,,A"),
            Self.sentence("GNGGA,101501.00,4500.0000,S,17030.0000,W,0,08,1.5,12.0,M,,M,,"),
        ].joined(separator: "\r\n")
        let log = try read(text)
        XCTAssertEqual(log.fixes.count, 2)
        let r = log.fixes[0].reading
        XCTAssertEqual(r.mode, .threeD)
        XCTAssertEqual(r.position, Coordinate(latitude: -45, longitude: -170.5))
        XCTAssertEqual(r.accuracy?.value ?? 0, 1.5 * 19, accuracy: 1e-9)
        XCTAssertEqual(log.fixes[1].t, 1)
        XCTAssertEqual(log.fixes[1].reading.mode, .noFix, "GGA quality 0 is no fix")
    }

    func testGLLOnlyLogsAndVoidStatus() throws {
        let text = [
            Self.sentence("ECGLL,5119.881,N,00125.169,E,164326,A,D"),
            Self.sentence("ECGLL,5119.881,N,00125.169,E,164328,V,N"),
        ].joined(separator: "\n")
        let log = try read(text)
        XCTAssertEqual(log.fixes.map(\.reading.mode), [.twoD, .noFix])
        XCTAssertEqual(log.fixes.map(\.t), [0, 2])
    }

    func testMidnightRolloverWithoutADate() throws {
        let text = [
            Self.sentence("GPGLL,5119.881,N,00125.169,E,235959,A,A"),
            Self.sentence("GPGLL,5119.881,N,00125.169,E,000001,A,A"),
        ].joined(separator: "\n")
        XCTAssertEqual(try read(text).fixes.map(\.t), [0, 2])
    }

    func testBadLinesAreCountedNotFatal() throws {
        let text = [
            "garbage",
            Self.sentence("GPRMC,085000.000,A,5420.4767,N,01330.3921,E,0.08,34.35,300613,,,A"),
            "$GPRMC,085001.000,A,54*00",
            Self.sentence("GPRMC,085002.000,A,9920.4767,N,01330.3921,E,0.08,34.35,300613,,,A"),
        ].joined(separator: "\n")
        let log = try read(text)
        XCTAssertEqual(log.refused["checksum mismatch"], 1)
        XCTAssertEqual(log.refused["not a GPS report"], 1)
        XCTAssertEqual(log.fixes.count, 2)
        XCTAssertEqual(log.fixes[1].reading.mode, .noFix, "a latitude of 99 degrees never becomes a position")
    }

    func testGpsdJSONReports() throws {
        let text = """
            {"class":"VERSION","release":"3.22"}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":1}
            {"class":"TPV","mode":3,"time":"2019-04-12T10:15:00.000Z","lat":-45.8775915,"lon":170.500124833,"eph":3.5,"speed":0.1,"track":12}
            {"class":"TPV","mode":2,"time":"2019-04-12T10:15:01.500Z","lat":-45.8775916,"lon":170.500124834,"epx":3,"epy":4,"speed":"NaN"}
            {"class":"TPV","mode":3,"lat":
            """
        let log = try read(text)
        XCTAssertEqual(log.format, .gpsdJSON)
        XCTAssertEqual(log.fixes.count, 3)
        XCTAssertEqual(log.fixes[1].reading.accuracy, 3.5)
        XCTAssertEqual(log.fixes[2].reading.accuracy, 5)
        XCTAssertEqual(log.fixes[2].t, 1.5)
        XCTAssertEqual(log.fixes[2].reading.mode, .twoD)
        XCTAssertNil(log.fixes[2].reading.speed, "a string where a number belongs never becomes a number")
        XCTAssertEqual(log.refused["malformed JSON"], 1)
    }

    /// Issue 12, hole 6: replay must judge what the box judges. Every gpsd report a recorded log
    /// holds becomes the reading `run` would make of the same report (GPSDFix.reading, the one
    /// translator), including the cases where the two paths used to disagree.
    func testReplayIsTheBoxOneTranslatorFromAGpsdReportToAReading() throws {
        let text = """
            {"class":"TPV","mode":3,"time":"2019-04-12T10:15:00.000Z","lat":54.1,"lon":13.2,"eph":-1,"epx":3,"epy":4,"speed":0.2,"track":10}
            {"class":"TPV","mode":3,"time":"2019-04-12T10:15:01.000Z","lat":54.1,"lon":13.2,"eph":6,"speed":-3,"track":400}
            {"class":"TPV","mode":2,"time":"2019-04-12T10:15:02.000Z","lat":54.1,"lon":13.2,"epx":-1,"epy":2}
            """
        let log = try read(text)
        XCTAssertEqual(log.fixes.count, 3)
        // A negative eph is "unknown": the good epx/epy give the accuracy, as live.
        XCTAssertEqual(log.fixes[0].reading.accuracy, 5)
        // A negative speed and a course past 360 are no speed and no course, as live.
        XCTAssertNil(log.fixes[1].reading.speed)
        XCTAssertNil(log.fixes[1].reading.track)
        XCTAssertEqual(log.fixes[1].reading.accuracy, 6)
        // No usable error at all: no accuracy, never a made-up one.
        XCTAssertNil(log.fixes[2].reading.accuracy)
        let live = [
            GPSDFix(mode: 3, latitude: 54.1, longitude: 13.2, eph: -1, epx: 3, epy: 4, speed: 0.2, track: 10,
                    time: log.fixes[0].reading.gpsTime),
            GPSDFix(mode: 3, latitude: 54.1, longitude: 13.2, eph: 6, speed: -3, track: 400, time: log.fixes[1].reading.gpsTime),
            GPSDFix(mode: 2, latitude: 54.1, longitude: 13.2, epx: -1, epy: 2, time: log.fixes[2].reading.gpsTime),
        ]
        for (fix, report) in zip(log.fixes, live) {
            XCTAssertEqual(fix.reading, report.reading(received: fix.reading.received), "replay and run disagree")
        }
        // NMEA: gpsd's eph is HDOP x 19, or x 4.75 for a differential (DGPS) fix, and an RMC
        // course past 360 is refused by the same translator.
        let nmea = [
            Self.sentence("GPGGA,101500.00,5406.000,N,01312.000,E,2,08,1.0,12.0,M,40.0,M,,"),
            Self.sentence("GPRMC,101500.00,A,5406.000,N,01312.000,E,0.5,361.0,120419,,"),
            Self.sentence("GPGGA,101501.00,5406.000,N,01312.000,E,1,08,1.0,12.0,M,40.0,M,,"),
        ].joined(separator: "\n")
        let n = try read(nmea)
        XCTAssertEqual(n.fixes.count, 2)
        XCTAssertEqual(n.fixes[0].reading.accuracy?.value ?? 0, 4.75, accuracy: 1e-9)
        XCTAssertNil(n.fixes[0].reading.track)
        XCTAssertEqual(n.fixes[1].reading.accuracy?.value ?? 0, 19, accuracy: 1e-9)
    }

    /// The live path's one parse of a TPV line: the fields the box uses, the rest skipped,
    /// anything that is not a well-formed TPV object refused.
    func testATPVLineIsReadInOnePass() {
        func tpv(_ s: String) -> GPSDFix? { Array(s.utf8).withUnsafeBufferPointer { GPSDFix.tpv($0) } }
        let line = #"{"class":"TPV","device":"/dev/ttyUSB0","status":2,"mode":3,"time":"2019-04-12T10:15:00.000Z","ept":0.005,"lat":-45.8775915,"lon":170.500124833,"altHAE":47.8,"epx":-1,"epy":4.0,"eph":-2,"speed":0.1,"track":12.5,"extra":{"a":[1,"x,}"]},"flag":true,"none":null}"#
        let fix = tpv(line)
        XCTAssertEqual(fix?.mode, 3)
        XCTAssertEqual(fix?.latitude, -45.8775915)
        XCTAssertEqual(fix?.longitude, 170.500124833)
        XCTAssertEqual(fix?.epy, 4)
        XCTAssertEqual(fix?.speed, 0.1)
        XCTAssertEqual(fix?.track, 12.5)
        XCTAssertEqual(fix?.time, CivilTime.parseISO8601("2019-04-12T10:15:00.000Z"))
        XCTAssertNil(fix?.reading(received: .zero).accuracy, "eph negative, epx negative: unknown")
        XCTAssertEqual(tpv(#"{"class":"TPV","mode":1}"#)?.reading(received: .zero).mode, .noFix)
        for bad in [#"{"class":"SKY","mode":3}"#, #"{"class":"TPV","mode":3,"lat":}"#, #"{"class":"TPV","mode":3"#, "", "{}",
                    #"{"class":"TPV","lat":1 2}"#, #"{"class":"TPV","mode":"3","lat":"x"}"#] {
            let f = tpv(bad)
            XCTAssertTrue(f == nil || f?.latitude == nil, "\(bad) gave \(String(describing: f))")
        }
        XCTAssertNil(tpv(#"{"class":"TPV","mode":3,"lat":}"#))
        XCTAssertNil(tpv(#"{"class":"TPV","lat":1 2}"#))
    }

    func testEmptyAndReportlessFilesAreErrors() {
        XCTAssertThrowsError(try read(""))
        XCTAssertThrowsError(try read("# just a comment\n$SDDBT,7.7,f,2.3,M,1.3,F*05\n"))
    }

    func testEveryRealCaptureReads() throws {
        let files = [
            "avnav/segments/nmea-20130630_L7478-9454_leaving-berth.log",
            "gpsd/test/daemon/telit-he910.log", "gpsd/test/daemon/sounder.log",
            "gpsd/test/nmea2000/logfile_20140914_365495765_can.log.chk",
            "signalk-server/samples/gofree-merrimac.log",
        ]
        for f in files {
            let bytes = try XCTUnwrap(readFile(Self.dataDirectory + "/" + f), f)
            let log = try LogReader.read(bytes: bytes)
            XCTAssertGreaterThan(log.fixes.filter { $0.reading.mode != .noFix }.count, 50, f)
            XCTAssertEqual(log.fixes.map(\.t), log.fixes.map(\.t).sorted(), "\(f): file time never runs backwards")
        }
    }

    func testJSONRoundTrip() throws {
        let v = JSONValue.object([("a", .number(1.25)), ("b", .string("q\"\n\u{1}")), ("c", .array([.null, .bool(true), .number(-3)]))])
        XCTAssertEqual(try JSONValue.parse(v.text), v)
        XCTAssertEqual(v.text, #"{"a":1.25,"b":"q\"\n\u0001","c":[null,true,-3]}"#)
        XCTAssertThrowsError(try JSONValue.parse(String(repeating: "[", count: 100)))
        XCTAssertThrowsError(try JSONValue.parse("{\"a\":1} x"))
    }
}

func readFile(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return out
}

extension Result {
    var failureValue: Failure? { if case .failure(let f) = self { f } else { nil } }
}

final class DifferentialAccuracyTests: XCTestCase {
    func testDifferentialFixesGetGpsdsSmallerError() throws {
        let text = LogReaderTests.sentence("GPGGA,101500.00,4500.0000,N,01700.0000,E,2,08,0.98,12.0,M,,M,,")
        let r = try XCTUnwrap(try LogReader.read(bytes: Array(text.utf8)).fixes.first?.reading)
        XCTAssertEqual(r.accuracy?.value ?? 0, 0.98 * 4.75, accuracy: 1e-9)
    }
}

final class HostileTimeTests: XCTestCase {
    /// Found by the fuzzer: a TPV in the year 1012 followed by one in 2024 trapped on overflow.
    func testCenturiesBetweenReportsAreRefusedNotATrap() throws {
        let text = """
            {"class":"TPV","mode":3,"time":"1012-01-01T00:00:00.000Z","lat":1,"lon":2}
            {"class":"TPV","mode":3,"time":"2024-01-01T00:00:00.000Z","lat":1,"lon":2}
            {"class":"TPV","mode":3,"time":"1012-01-01T00:00:01.000Z","lat":1,"lon":2}
            """
        let log = try LogReader.read(bytes: Array(text.utf8))
        XCTAssertEqual(log.fixes.map(\.t), [0, 1])
        XCTAssertEqual(log.refused["time jumps more than a day"], 1)
    }

    func testInstantSaturatesInsteadOfTrapping() {
        XCTAssertGreaterThan(Instant(seconds: 1e30).nanoseconds, 0)
        XCTAssertLessThan(Instant(seconds: -1e30).nanoseconds, 0)
        XCTAssertEqual(Instant(seconds: .nan).nanoseconds, 0)
    }
}
