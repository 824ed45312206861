import Foundation
import GPSDTestSupport
import XCTest

/// The box over the real gpsd judges a log as `anchor-alert replay` judges the same file.
///
/// gpsfake plays the log five times faster than its own clock, so `run` is given the watch's
/// times divided by five; `replay` reads the file at file time with the full times. Same
/// evidence, same rule: the same verdicts, in the same order, at the same point of the log.
final class GPSDEndToEndTests: XCTestCase {
    static let speed = 5.0
    static let origin = (lat: 54.3413, lon: 13.5065)

    /// 30 s lying still at the origin, then 50 s motoring east at 3 m/s (file time, 1 Hz).
    static func log() -> [String] {
        var lines: [String] = []
        for i in 0..<80 {
            let east = i < 30 ? 0.0 : Double(i - 29) * 3
            let lon = origin.lon + east / (111_320 * cos(origin.lat * .pi / 180))
            lines += NMEA.fix(secondsOfDay: 10 * 3600 + i, date: "301126", latitude: origin.lat, longitude: lon,
                              hdop: 1.0, knots: i < 30 ? 0 : 5.8, course: 90)
        }
        return lines
    }

    func config(scale: Double) throws -> String {
        let path = NSTemporaryDirectory() + "aa-e2e-\(UUID().uuidString).conf"
        let text = """
            [watch]
            radius = 30
            window = \(10 / scale)
            min_fixes = 2
            confirmation = \(20 / scale)
            fastest = \(10 / scale)
            stale_after = \(10 / scale)
            accuracy_weight = 0
            # This test compares the two paths, not the rule: a fixed 3 m wander in both.
            noise_floor = 3
            noise_prior = 3
            gps_grace = 5
            [ring]
            enabled = false
            [siren]
            enabled = false
            [gpio]
            buzzer_enabled = false
            button_enabled = false
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testVerdictsOverGpsdMatchReplayOnTheSameFile() throws {
        let logPath = try GPSFakeFixture.writeLog(Self.log(), name: "departure.log")

        // Replay at file time.
        let replay = try ReplayAcceptanceTests.replay([logPath, "--mark-after", "2", "--arm", "--config", try config(scale: 1)])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        let replayKinds = replay.lines.compactMap { $0["event"] as? String == "verdict" ? $0["position"] as? String : nil }
        let replayRing = try XCTUnwrap(replay.lines.last?["first_alarm_t"] as? Double, "replay never rang")

        // The same file through gpsfake and the real gpsd, into the real box.
        let fake: GPSFakeFixture
        do {
            fake = try GPSFakeFixture(log: logPath, secondsPerSentence: 1 / (3 * Self.speed))
            try fake.waitUntilListening()
        } catch {
            return XCTFail("gpsd can't start here: \(error)")
        }
        defer { fake.stop() }
        let dir = NSTemporaryDirectory() + "aa-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/run", withIntermediateDirectories: true)
        let out = dir + "/out.log"
        XCTAssertTrue(FileManager.default.createFile(atPath: out, contents: nil))
        let box = Process()
        box.executableURL = TestBinary.anchorAlert
        box.arguments = ["run", "--config", try config(scale: Self.speed), "--switch", "off",
                         "--journal-dir", dir + "/journal", "--runtime-dir", dir + "/run"]
        box.environment = ["PATH": "/usr/bin:/bin"]
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        box.standardOutput = handle
        box.standardError = handle
        // gpsd's address and port come from the configuration file.
        try (String(contentsOfFile: box.arguments![2], encoding: .utf8) + "\n[gps]\nhost = \"127.0.0.1\"\nport = \(fake.port)\n")
            .write(toFile: box.arguments![2], atomically: true, encoding: .utf8)
        try box.run()
        defer { if box.isRunning { box.terminate() } }

        // The skipper marks once the box has a steady reading, then slides the switch to ARM.
        var marked = false
        let markDeadline = Date().addingTimeInterval(8)
        while !marked, Date() < markDeadline {
            let mark = Process()
            mark.executableURL = TestBinary.anchorAlert
            mark.arguments = ["mark", "--runtime-dir", dir + "/run"]
            mark.standardOutput = FileHandle.nullDevice
            mark.standardError = FileHandle.nullDevice
            try mark.run()
            mark.waitUntilExit()
            marked = mark.terminationStatus == 0
            if !marked { Thread.sleep(forTimeInterval: 0.1) }
        }
        let soFar = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        XCTAssertTrue(marked, "the box never accepted a mark: \(soFar)")
        kill(box.processIdentifier, SIGUSR1)

        // Until it rings, then until the log's end shows as can't judge and the GPS fault.
        let end = Date().addingTimeInterval(40)
        var text = ""
        while Date() < end {
            text = try String(contentsOfFile: out, encoding: .utf8)
            if text.contains("Fault: GPS: no usable GPS reading") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        box.terminate()
        box.waitUntilExit()
        text = try String(contentsOfFile: out, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)

        func kind(_ line: String) -> String? {
            if line == "Holding" { return "holding" }
            if line.hasPrefix("Checking") { return "checking" }
            if line.hasPrefix("Dragging") { return "dragging" }
            if line.hasPrefix("Can't judge") { return "cant_judge" }
            return nil
        }
        let boxKinds = lines.compactMap(kind)
        let ringIndex = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Alarm: ringing") }, "the box over gpsd never rang:\n\(text)")
        let beforeRing = lines[..<ringIndex].compactMap(kind)
        XCTAssertEqual(beforeRing.drop { $0 == "cant_judge" }.map { $0 }, Array(replayKinds.prefix(beforeRing.drop { $0 == "cant_judge" }.count)),
                       "verdicts up to the alarm:\nbox: \(boxKinds)\nreplay: \(replayKinds)")
        XCTAssertEqual(Array(beforeRing.suffix(3)), ["holding", "checking", "dragging"])
        XCTAssertEqual(Array(replayKinds.prefix(3)), ["holding", "checking", "dragging"])
        // After the log ends: stale, then can't judge, then the GPS fault (never the drag siren).
        let afterRing = lines[ringIndex...]
        XCTAssertTrue(afterRing.contains { $0.hasPrefix("Can't judge") }, text)
        XCTAssertTrue(afterRing.contains { $0.hasPrefix("Fault: GPS: no usable GPS reading") }, text)
        XCTAssertEqual(lines.filter { $0.hasPrefix("Alarm: ringing") }.count, 1, "one alarm, latched")
        print("gpsd end to end: replay rang at \(replayRing) s of the file; the box over gpsd said \(boxKinds)")
    }
}
