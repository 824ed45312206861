#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Journal
import WatchCore
import XCTest

final class ExportTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory("export") }
    override func tearDown() {
        // Keep the picture for a person to look at when asked to.
        if getenv("ANCHOR_ALERT_KEEP_EXPORT") == nil { removeTree(dir) } else { print("export kept in \(dir)") }
    }

    static let schema: String = {
        let here = #filePath
        return String(here[..<here.lastIndex(of: "/")!]) + "/Fixtures/gpx-1.1-subset.xsd"
    }()

    func night() throws -> NightTrack {
        let n = try leavingBerthNight(wallBase: WallTime(seconds: 1_800_000_000))
        return try NightTrack.build(n.entries, range: .lastWatch, now: WallTime(seconds: 1_800_010_000))
    }

    func save(_ text: String, _ name: String) -> String {
        let path = dir + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try? FileDescriptor(borrowing: fd).writeAll(Array(text.utf8))
        close(fd)
        return path
    }

    func testLastWatchRunsFromArmToOffWithBothRings() throws {
        let n = try night()
        XCTAssertEqual(n.rings.map(\.episode), [1, 2])
        XCTAssertTrue(n.rings.allSatisfy { $0.position != nil })
        XCTAssertEqual(n.radius, 30)
        XCTAssertNotNil(n.anchor)
        XCTAssertGreaterThan(n.fixCount, 50)
        let all = n.segments.flatMap { $0 }
        XCTAssertTrue(all.allSatisfy { $0.at >= n.from && $0.at <= n.to })
    }

    func testGPXIsValidAgainstTheGPX11Structure() throws {
        let gpx = GPXWriter.gpx(try night())
        let path = save(gpx, "night.gpx")
        let lint = runProgram(["/usr/bin/xmllint", "--noout", "--schema", Self.schema, path])
        XCTAssertNotEqual(lint.code, -1, "xmllint is missing: install libxml2-utils (scripts/packages/surfaces.txt)")
        XCTAssertEqual(lint.code, 0, lint.err)
        XCTAssertTrue(lint.err.contains("validates"), lint.err)

        // And what the schema can't say: times ascend, coordinates are where the boat was.
        let times = gpx.split(separator: "\n").filter { $0.contains("<trkpt") }.compactMap { line -> String? in
            guard let a = line.range(of: "<time>"), let b = line.range(of: "</time>") else { return nil }
            return String(line[a.upperBound..<b.lowerBound])
        }
        XCTAssertGreaterThan(times.count, 50)
        XCTAssertEqual(times, times.sorted())
        XCTAssertTrue(gpx.contains("<name>Anchor</name>"))
        XCTAssertEqual(gpx.components(separatedBy: "<name>Alarm ").count - 1, 2)
        XCTAssertTrue(gpx.contains("lat=\"54.34"), "the track is at Lauterbach")

        // The schema check is real: a file with elements out of order fails it.
        let broken = gpx.replacingOccurrences(of: "<name>Anchor</name>\n", with: "").replacingOccurrences(
            of: "<sym>anchor</sym>", with: "<sym>anchor</sym><name>Anchor</name>")
        let bad = runProgram(["/usr/bin/xmllint", "--noout", "--schema", Self.schema, save(broken, "broken.gpx")])
        XCTAssertNotEqual(bad.code, 0, "out-of-order elements must fail validation")
    }

    func testSVGRendersWithRsvg() throws {
        let svg = SVGWriter.svg(try night())
        let path = save(svg, "night.svg")
        XCTAssertTrue(svg.contains("stroke=\"\(SVGWriter.Palette.quiet)\""), "the track is the quiet colour")
        XCTAssertTrue(svg.contains(">Alarm "))
        XCTAssertTrue(svg.contains(" m</text>"), "a scale bar")
        let png = dir + "/night.png"
        let r = runProgram(["/usr/bin/rsvg-convert", "-o", png, path])
        XCTAssertNotEqual(r.code, -1, "rsvg-convert is missing: install librsvg2-bin (scripts/packages/surfaces.txt)")
        XCTAssertEqual(r.code, 0, r.err)
        var st = stat()
        XCTAssertEqual(stat(png, &st), 0)
        XCTAssertGreaterThan(st.st_size, 5000, "a picture, not an empty canvas")
        XCTAssertEqual(runProgram(["/usr/bin/xmllint", "--noout", path]).code, 0, "well-formed XML")
    }

    func testExportCommandWritesFilesAndSaysWhenThereIsNothing() throws {
        let n = try leavingBerthNight(wallBase: WallTime.now() - .seconds(7200))
        let history = save(n.entries.map(HistoryLines.encode).joined(separator: "\n") + "\n", "history.jsonl")
        let gpx = runProgram([applianceBinary, "export", "--gpx", "--history", history, "-o", dir + "/cli.gpx"])
        XCTAssertEqual(gpx.code, 0, gpx.err)
        XCTAssertEqual(runProgram(["/usr/bin/xmllint", "--noout", "--schema", Self.schema, dir + "/cli.gpx"]).code, 0)
        let svg = runProgram([applianceBinary, "export", "--svg", "--history", history])
        XCTAssertEqual(svg.code, 0)
        XCTAssertTrue(svg.out.hasPrefix("<?xml"))
        XCTAssertTrue(svg.out.hasSuffix("</svg>\n"))
        let none = runProgram([applianceBinary, "export", "--history", history, "--from", "30m", "--to", "10m"])
        XCTAssertEqual(none.code, 1)
        XCTAssertTrue(none.err.hasPrefix("Export: the log has no track from "), none.err)
        XCTAssertEqual(runProgram([applianceBinary, "export", "--gpx", "--svg"]).code, 64)
    }
}
