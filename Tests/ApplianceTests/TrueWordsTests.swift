import Foundation
@testable import Appliance
import WatchCore
import XCTest

/// What the box says matches what is so, through the real `anchor-alert run` and the real client
/// commands (issue 26, "Words that match what happened"): gpsd is not "answering" before it has,
/// a receiver with no fix is not a fresh reading, two faulty sounders don't each say the other
/// still rings, and a buzzer set as not fitted has no wires to check.
final class TrueWordsTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory("true-words") }
    override func tearDown() { removeTree(dir) }

    /// `anchor-alert run` with `config` in its own directories, until `body` returns; stopped with
    /// SIGTERM. Returns what the box logged.
    @discardableResult
    func withBox(_ config: String, _ extra: [String] = [], _ body: () throws -> Void) throws -> String {
        let conf = dir + "/box.conf"
        try config.write(toFile: conf, atomically: true, encoding: .utf8)
        let log = dir + "/box.log"
        XCTAssertTrue(FileManager.default.createFile(atPath: log, contents: nil), "the box's log file made")
        let box = Process()
        box.executableURL = URL(fileURLWithPath: applianceBinary)
        box.arguments = ["run", "--config", conf, "--journal-dir", dir + "/journal", "--runtime-dir", dir + "/run",
                         "--switch", "off"] + extra
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        box.standardOutput = handle
        box.standardError = handle
        try box.run()
        defer {
            if box.isRunning { box.terminate() }
            box.waitUntilExit()
        }
        // Up once its status answers.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, client(["status"]).code != 0 { Thread.sleep(forTimeInterval: 0.05) }
        try body()
        box.terminate()
        box.waitUntilExit()
        return try String(contentsOfFile: log, encoding: .utf8)
    }

    func client(_ args: [String]) -> (code: Int32, out: String, err: String) {
        runProgram([applianceBinary] + args + ["--runtime-dir", dir + "/run", "--config", dir + "/box.conf"])
    }

    func row(_ component: String) throws -> (status: String, answer: String, remedy: String?) {
        let json = try JSON.parse(client(["check", "--json", "--journal", dir + "/journal"]).out)
        let row = try XCTUnwrap(json["rows"]?.array?.first { $0["component"]?.string == component }, component)
        return (row["status"]?.string ?? "", row["answer"]?.string ?? "", row["remedy"]?.string)
    }

    static let quiet = "[gpio]\nbuzzer_enabled = false\nbutton_enabled = false\n[siren]\ndevice = \"null\"\n[ring]\nenabled = false\n"

    /// Nothing listens on gpsd's port: in the fault's 10 s of grace the check can't tell yet, it
    /// never says Yes; and a buzzer set as not fitted has no wires to check.
    func testCheckNeverSaysGpsdAnswersBeforeItHas() throws {
        try withBox("[gps]\nport = 1\n" + Self.quiet) {
            let gpsd = try row("gpsd")
            XCTAssertEqual(gpsd.status, "unknown", "\(gpsd)")
            XCTAssertTrue(gpsd.answer.hasPrefix("Can't tell yet: no answer from gpsd"), gpsd.answer)
            let receiver = try row("receiver")
            XCTAssertEqual(receiver.status, "unknown", "\(receiver)")
            let buzzer = try row("buzzer")
            XCTAssertEqual(buzzer.status, "attention")
            XCTAssertFalse(buzzer.remedy?.contains("wires") ?? false, "a buzzer set as not fitted has no wires: \(buzzer)")
            XCTAssertTrue(buzzer.remedy?.contains("buzzer_enabled = true") ?? false, "\(buzzer)")
        }
    }

    /// A receiver that reports, but never a position: not a fresh GPS reading, anchor or not.
    func testAReceiverWithNoFixIsNotAFreshReading() throws {
        var nmea: [String] = []
        func sentence(_ body: String) -> String {
            "$\(body)*" + String(format: "%02X", body.utf8.reduce(0) { $0 ^ $1 })
        }
        for i in 0..<120 {
            let t = String(format: "12%02d%02d.00", i / 60, i % 60)
            nmea.append(sentence("GPRMC,\(t),V,,,,,,,040526,,,N"))
            nmea.append(sentence("GPGGA,\(t),,,,,0,00,99.99,,,,,,"))
        }
        let file = dir + "/no-fix.nmea"
        try (nmea.joined(separator: "\r\n") + "\r\n").write(toFile: file, atomically: true, encoding: .utf8)
        try withBox(Self.quiet, ["--simulate", file]) {
            // Past the first report.
            let deadline = Date().addingTimeInterval(5)
            var gps = try row("gps_reading")
            while Date() < deadline, gps.answer.contains("yet") {
                Thread.sleep(forTimeInterval: 0.1)
                gps = try row("gps_reading")
            }
            XCTAssertEqual(gps.status, "attention", "\(gps)")
            XCTAssertEqual(gps.answer, "No: GPS has no position")
        }
    }

    /// The buzzer's line and the siren's device both fail: neither fault says the other still
    /// sounds, in the status or in the service log; each says nothing can sound the alarm.
    func testTwoFaultySoundersNeitherSaysTheOtherStillRings() throws {
        let log = try withBox("[gpio]\nchip = \"nochip\"\nbutton_enabled = false\n[siren]\ndevice = \"nosuchdevice\"\n[ring]\nenabled = false\n",
                              ["--simulate", "hold"]) {
            let status = client(["status"])
            XCTAssertEqual(status.code, 0, status.err)
            let faults = status.out.split(separator: "\n").filter { $0.hasPrefix("Buzzer:") || $0.hasPrefix("Siren:") }
            XCTAssertEqual(faults.count, 2, status.out)
            for line in faults {
                XCTAssertFalse(line.contains("still rings") || line.contains("sound on the siren"), String(line))
                XCTAssertTrue(line.contains("nothing can sound the alarm"), String(line))
            }
        }
        let faults = log.split(separator: "\n").filter { $0.hasPrefix("Fault: Buzzer") || $0.hasPrefix("Fault: Siren") }
        XCTAssertEqual(faults.count, 2, log)
        // The second to be raised knows the first: it never claims the other sounds.
        XCTAssertTrue(faults.last?.contains("nothing can sound the alarm") ?? false, log)
    }

    /// Alarm off, the boat dragged and came back inside: the verdict stays Dragging (then
    /// Checking) while the evidence beyond the radius decays, and the status says why beside a
    /// distance inside the radius (the real box's snapshot, the real `status`).
    func testAVerdictBesideADistanceInsideTheRadiusSaysWhy() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        _ = box.handle(.decision(.mark(.here)))
        box.fixes(east: 80, count: 60)
        XCTAssertEqual(box.watch.verdict.kind, .dragging)
        box.fixes(east: 10, count: 3)
        XCTAssertTrue([.dragging, .checking].contains(box.watch.verdict.kind), "\(box.watch.verdict)")
        let r = runProgram([applianceBinary, "status", "--runtime-dir", dir, "--config", "/dev/null"])
        XCTAssertEqual(r.code, 0, r.err)
        let lines = r.out.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Distance to anchor: 10 m") && $0.hasSuffix("alert radius 30 m") }, r.out)
        XCTAssertTrue(lines.first?.hasSuffix(": the boat is back inside the alert radius, the readings beyond it still count") ?? false, r.out)
        // Beyond the radius the verdict needs no such words.
        box.fixes(east: 80, count: 3)
        let out = runProgram([applianceBinary, "status", "--runtime-dir", dir, "--config", "/dev/null"]).out
        XCTAssertEqual(out.split(separator: "\n").first, "Dragging", out)
    }

    /// A boat that only yaws on the spot (a mooring: a 3 m circle) shows no degrees of swing.
    func testAMooredBoatShowsNoDegreesOfSwing() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        _ = box.handle(.decision(.mark(.here)))
        let centre = Geodesy.destination(from: MiniBox.origin, bearing: 90, distance: 10)
        for i in 0..<1800 {
            box.now = box.now + .seconds(1)
            let p = Geodesy.destination(from: centre, bearing: Double(i % 360) * 1.0, distance: 3)
            _ = box.handle(.reading(GPSReading(mode: .threeD, position: p, accuracy: 3, received: box.now)))
        }
        box.writer.publish(box.watch.status(at: box.now), now: box.now + .seconds(60))
        let swing = try XCTUnwrap(box.watch.swing.estimate, "the estimator fitted something")
        XCTAssertLessThan(swing.swingRadius.value, 6, "\(swing)")
        let out = runProgram([applianceBinary, "status", "--runtime-dir", dir, "--config", "/dev/null"]).out
        XCTAssertFalse(out.contains("degrees of arc"), out)
        XCTAssertTrue(out.contains("Swing: learning where the anchor is, no swing seen yet"), out)
    }
}
