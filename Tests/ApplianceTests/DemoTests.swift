import Foundation
import XCTest

/// The demo is the box on a scripted night; it must show every phase the issue lists, in order,
/// and end by itself.
final class DemoTests: XCTestCase {
    func testTheDemoNightShowsEveryPhaseInOrderAndEnds() throws {
        let p = Process()
        p.executableURL = TestBinary.anchorAlert
        p.arguments = ["demo", "--speed", "0", "--plain"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let expected = [
            "Anchor marked at", "Alarm on", "One stray GPS reading", "The GPS loses its position", "Can't judge: GPS has no position",
            "Fault: GPS: the receiver has had no position for 1:00", "Fault cleared: GPS reading", "Checking:",
            "Dragging:", "Alarm: ringing (alarm 1)", "Snoozing 5:00", "Alarm: ringing (alarm 2)",
            "Alarm off", "The demo is over",
        ]
        var rest = Substring(text)
        for phrase in expected {
            guard let r = rest.range(of: phrase) else { return XCTFail("missing or out of order: \(phrase)\n\(text)") }
            rest = rest[r.upperBound...]
        }
        // The stray fix moves nothing: no verdict change between it and the outage.
        let stray = try XCTUnwrap(text.range(of: "One stray GPS reading"))
        let outage = try XCTUnwrap(text.range(of: "The GPS loses its position"))
        let between = text[stray.upperBound..<outage.lowerBound]
        XCTAssertFalse(between.contains("Checking") || between.contains("Dragging"), String(between))
        XCTAssertFalse(text.contains("\u{2014}"), "no em dashes in what the skipper reads")
    }
}
