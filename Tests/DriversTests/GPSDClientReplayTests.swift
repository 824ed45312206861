import Drivers
import GPSDTestSupport
import Glibc
import WatchCore
import XCTest

/// The driver against a real gpsd fed by gpsfake. Where gpsd cannot start, these fail with the
/// reason: they never pass without having run.
final class GPSDClientReplayTests: XCTestCase {
    static let data = "/work/shared/data/gps"

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
