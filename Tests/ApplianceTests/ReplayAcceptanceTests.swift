import Foundation
import XCTest

/// The skeleton issue's acceptance, through the real binary and its JSON lines contract.
final class ReplayAcceptanceTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let data = root.deletingLastPathComponent().appendingPathComponent("shared/data/gps")

    static var binary: URL { TestBinary.anchorAlert }

    struct Run {
        var status: Int32
        var lines: [[String: Any]]
        var stderr: String
    }

    static func replay(_ args: [String]) throws -> Run {
        let p = Process()
        p.executableURL = binary
        p.arguments = ["replay"] + args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return Run(status: p.terminationStatus, lines: lines, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Rows of PROVENANCE.md whose state is "stationary" and whose span is over two minutes.
    static func stationaryCaptures() throws -> [String] {
        let text = try String(contentsOf: data.appendingPathComponent("PROVENANCE.md"), encoding: .utf8)
        var files: [String] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 11 else { continue }
            let file = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let span = cells[6].split(separator: ":").compactMap { Int($0) }
            let seconds = span.count == 3 ? span[0] * 3600 + span[1] * 60 + span[2] : 0
            if cells[10] == "stationary", seconds > 120 { files.append(file) }
        }
        return files
    }

    func testEveryStationaryCaptureOverTwoMinutesRaisesNoAlarm() throws {
        let files = try Self.stationaryCaptures()
        XCTAssertGreaterThanOrEqual(files.count, 6, "PROVENANCE lists the stationary captures")
        for file in files {
            let run = try Self.replay([Self.data.appendingPathComponent(file).path, "--mark-after", "10", "--radius", "30", "--arm"])
            XCTAssertEqual(run.status, 0, "\(file): \(run.stderr)")
            let summary = try XCTUnwrap(run.lines.last, file)
            XCTAssertEqual(summary["event"] as? String, "summary")
            XCTAssertNotNil(summary["marked_t"] as? Double, "\(file): never marked")
            XCTAssertEqual(summary["alarms"] as? Int, 0, "\(file) rang")
            XCTAssertGreaterThan(summary["fixes"] as? Int ?? 0, 60, file)
        }
        print("replay acceptance: \(files.count) stationary captures, no alarm: \(files.joined(separator: ", "))")
    }

    func testLeavingTheBerthRingsAfterTheBoatLeavesAndNotBefore() throws {
        let file = Self.data.appendingPathComponent("avnav/segments/nmea-20130630_L7478-9454_leaving-berth.log").path
        let run = try Self.replay([file, "--mark-after", "60", "--radius", "30", "--arm"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let summary = try XCTUnwrap(run.lines.last)
        XCTAssertEqual(summary["marked_t"] as? Double, 60)
        let first = try XCTUnwrap(summary["first_alarm_t"] as? Double, "it never rang")
        // The capture starts at 08:50:00 and the boat leaves the berth at 08:56.
        XCTAssertGreaterThan(first, 360)
        let ring = try XCTUnwrap(run.lines.first { $0["event"] as? String == "alarm" && $0["alarm"] as? String == "ringing" })
        XCTAssertGreaterThan(ring["distance_m"] as? Double ?? 0, 30, "it rings only once the boat is beyond the alert radius")
        XCTAssertEqual(ring["episode"] as? Int, 1)
    }

    func testReplayContractAndErrors() throws {
        let missing = try Self.replay(["/nonexistent.log"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("can't read"), missing.stderr)
        XCTAssertEqual(try Self.replay([]).status, 64)
        XCTAssertEqual(try Self.replay(["x", "--radius", "abc"]).status, 64)
        XCTAssertEqual(try Self.replay(["x", "--bogus"]).status, 64)

        let file = Self.data.appendingPathComponent("gpsd/test/daemon/sounder.log").path
        let run = try Self.replay([file, "--anchor", "51.331350,1.419483", "--arm", "--radius", "50"])
        XCTAssertEqual(run.status, 0)
        for line in run.lines.dropLast() {
            for key in ["t", "event", "position", "alarm", "distance_m"] {
                XCTAssertNotNil(line[key], "every line carries \(key): \(line)")
            }
        }
        XCTAssertEqual(run.lines.first?["event"] as? String, "marked")
        XCTAssertEqual(run.lines.last?["event"] as? String, "summary")
        XCTAssertTrue(run.lines.last?["first_alarm_t"] is NSNull)
    }
}
