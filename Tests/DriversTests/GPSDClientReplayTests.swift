import Drivers
import GPSDTestSupport
import Glibc
import Recordings
import WatchCore
import XCTest

/// The driver against a real gpsd fed by gpsfake. Where gpsd cannot start, these fail with the
/// reason: they never pass without having run.
final class GPSDClientReplayTests: XCTestCase {
    /// The shared data sits beside the checkout: ../shared/data/gps from the package root.
    static var data: String {
        let root = #filePath.components(separatedBy: "/Tests/").first ?? "."
        return root + "/../shared/data/gps"
    }

    /// Settings for tests: fast retries, so a client started with gpsfake is watching before the
    /// replay begins (gpsfake waits 1.4 s after its own watcher joins).
    static func settings(port: UInt16) -> GPSDSettings {
        var s = GPSDSettings(host: "127.0.0.1", port: port)
        s.backoffFirst = .milliseconds(20)
        s.backoffMax = .milliseconds(100)
        return s
    }

    static func dataPath(_ relative: String) -> String {
        // The shared data lives beside the worktrees; CI may point elsewhere.
        if let base = getenv("ANCHOR_GPS_DATA") { return String(cString: base) + "/" + relative }
        return data + "/" + relative
    }

    func testReadingsMatchTheCapturesFixes() throws {
        let log = Self.dataPath("gpsd/test/daemon/mt3339.log")
        let expected = ExpectedFixes.read(GPSFakeFixtureTestsSupport.read(log))
        XCTAssertGreaterThan(expected.count, 20, "the capture should hold its fixes")

        let fake = try startFake(log)
        defer { fake.stop() }
        let client = GPSDClient(settings: Self.settings(port: fake.port), now: PollDriver.now())
        let loop = PollDriver(client)
        let t0 = GPSFakeFixture.monotonic()
        loop.run(timeout: .seconds(30)) { _ in !fake.isRunning && !client.isConnected }
        print("mt3339 replay: gpsd listening after \(fake.startupSeconds.map { "\($0)" } ?? "?") s; replay done after \(GPSFakeFixture.monotonic() - t0) s; stats \(client.stats)")
        print(fake.stderr)

        let timed = loop.readings.filter { $0.gpsTime != nil && $0.position != nil }
        XCTAssertFalse(timed.isEmpty, "no readings from gpsd: \(fake.stderr)")
        var matched = Set<Int>()
        for r in timed {
            let key = ExpectedFixes.key(gpsTime: r.gpsTime!)
            guard let want = expected[key] else {
                XCTFail("reading at \(key) is not a fix of the file"); continue
            }
            XCTAssertEqual(r.position!.latitude, want.latitude, accuracy: 1e-7)
            XCTAssertEqual(r.position!.longitude, want.longitude, accuracy: 1e-7)
            XCTAssertEqual(r.mode, .threeD)
            XCTAssertNotNil(r.accuracy)
            matched.insert(key)
        }
        XCTAssertEqual(matched.count, timed.count, "each fix once: duplicates must be dropped")
        XCTAssertEqual(Set(expected.keys), matched, "every fix of the file arrives")
    }
}

enum GPSFakeFixtureTestsSupport {
    static func read(_ path: String) -> String {
        guard let f = fopen(path, "r") else { return "" }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            bytes += buf[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Starts gpsfake and waits for its gpsd, failing the calling test with the reason when gpsd
/// can't start (never a silent pass).
func startFake(_ log: String, secondsPerSentence: Double = 0.02, port: UInt16? = nil,
               file: StaticString = #filePath, line: UInt = #line) throws -> GPSFakeFixture {
    do {
        let fake = try GPSFakeFixture(log: log, secondsPerSentence: secondsPerSentence, port: port)
        try fake.waitUntilListening()
        return fake
    } catch {
        XCTFail("gpsd could not start: \(error)", file: file, line: line)
        throw error
    }
}

/// The driver's readings of a file through gpsd against `Recordings`' reading of the same file:
/// the box over gpsd and `anchor-alert replay` must see the same fixes.
final class GPSDAgainstRecordingsTests: XCTestCase {
    func testDriverAndRecordingsReadTheSameFixes() throws {
        let log = GPSDClientReplayTests.dataPath("gpsd/test/daemon/mt3339.log")
        let text = GPSFakeFixtureTestsSupport.read(log)
        let recorded = try LogReader.read(bytes: Array(text.utf8))
        var byTime: [Int: GPSReading] = [:]
        for r in recorded.readings { if let t = r.gpsTime { byTime[ExpectedFixes.key(gpsTime: t)] = r } }
        XCTAssertGreaterThan(byTime.count, 20)

        let fake = try startFake(log)
        defer { fake.stop() }
        let client = GPSDClient(settings: GPSDClientReplayTests.settings(port: fake.port), now: PollDriver.now())
        let loop = PollDriver(client)
        loop.run(timeout: .seconds(30)) { _ in !fake.isRunning && !client.isConnected }
        var compared = 0, dgpsMismatches = 0
        for r in loop.readings {
            // gpsd places this 2015 capture in 2034: compare by time of day.
            guard let t = r.gpsTime, let want = byTime[ExpectedFixes.key(gpsTime: t)] else { continue }
            compared += 1
            XCTAssertEqual(r.mode, want.mode)
            XCTAssertEqual(r.position?.latitude ?? 0, want.position?.latitude ?? 1, accuracy: 1e-9)
            XCTAssertEqual(r.position?.longitude ?? 0, want.position?.longitude ?? 1, accuracy: 1e-9)
            // Accuracy is not compared here: this capture's fixes are DGPS (GGA quality 2), for
            // which gpsd 3.22 reports eph = HDOP x 4.75 m, while Recordings uses HDOP x 19 m
            // for every fix (measured: HDOP 0.98 gives 4.655 here, 18.62 there). Reported to
            // the lead; plain GPS fixes agree (see the known-sentences test).
            XCTAssertEqual(r.accuracy == nil, want.accuracy == nil, "accuracy known to both at \(t)")
            if let a = r.accuracy, let b = want.accuracy, abs(a.value - b.value) > 0.05 { dgpsMismatches += 1 }
            XCTAssertEqual(r.speed ?? -1, want.speed ?? -1, accuracy: 0.01)
            XCTAssertEqual(r.track ?? -1, want.track ?? -1, accuracy: 0.01)
        }
        print("driver vs Recordings: \(compared) fixes compared of \(byTime.count) in the file; accuracy differs on \(dgpsMismatches) (DGPS)")
        XCTAssertEqual(compared, byTime.count, "every fix of the file, through gpsd")
    }
}
