@testable import Appliance
import Glibc
import XCTest

/// The sharp edges of a configuration file written on another machine, or damaged (issue 15,
/// item 4): each is read as meant or reported, never silently ignored, never echoed raw.
final class ConfigurationEdgeTests: XCTestCase {
    let sample = ["[gps]", "port = 2948", "[journal]", "directory = \"/data/anchor\""]

    func testCRLFLineEndsAreReadAsLines() {
        let l = Configuration.parse(sample.joined(separator: "\r\n") + "\r\n")
        XCTAssertEqual(l.problems, [])
        XCTAssertEqual(l.configuration.gps.gpsd.port, 2948)
        XCTAssertEqual(l.configuration.journal.directory, "/data/anchor")
    }

    func testAByteOrderMarkIsNotPartOfLineOne() {
        let l = Configuration.parse("\u{FEFF}" + sample.joined(separator: "\n"))
        XCTAssertEqual(l.problems, [])
        XCTAssertEqual(l.configuration.gps.gpsd.port, 2948)
    }

    func testABOMAndCRLFTogetherAsAWindowsEditorSavesThem() throws {
        let path = "/tmp/aa-bom-crlf-\(getpid()).conf"
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(sample.joined(separator: "\r\n").utf8)
        XCTAssertTrue(write(bytes, to: path))
        defer { unlink(path) }
        let l = Configuration.load(path: path)
        XCTAssertEqual(l.problems, [])
        XCTAssertEqual(l.configuration.journal.directory, "/data/anchor")
    }

    func testKeysAfterAnUnclosedSectionHeaderAreReportedAsIgnored() {
        let l = Configuration.parse("[watch\nradius = 45\nwindow = 30\n[gps]\nport = 2948\n")
        XCTAssertEqual(l.problems, [
            "Configuration: line 1: a section header needs a closing ], not [watch; the keys after it are ignored up to the next section",
            "Configuration: line 2: radius is ignored: the section header on line 1 has no closing ]",
            "Configuration: line 3: window is ignored: the section header on line 1 has no closing ]",
        ])
        XCTAssertEqual(l.configuration.watchSettings.radius, Configuration().watchSettings.radius)
        XCTAssertEqual(l.configuration.gps.gpsd.port, 2948, "the next good header ends the skipping")
    }

    func testGarbageIsEscapedNeverEchoedRaw() {
        // An escape sequence that would clear the screen, a bidi override, bytes that are not UTF-8.
        let text = "[watch]\nradius = \u{1B}[2J\u{1B}[H\nwindow = abc\u{202E}def\n\u{7}\u{FFFD}junk\n"
        let l = Configuration.parse(text)
        XCTAssertEqual(l.problems.count, 3)
        for p in l.problems {
            XCTAssertFalse(p.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" || $0 == "\u{FFFD}" }, p)
        }
        XCTAssertEqual(l.problems[0], "Configuration: line 2: watch.radius must be a number, not \\u{1B}[2J\\u{1B}[H; using 30")
        XCTAssertTrue(l.problems[2].hasSuffix("not \\u{7}\\u{FFFD}junk"), l.problems[2])
    }

    func testALongValueIsCutWhenEchoed() {
        let l = Configuration.parse("[watch]\nradius = " + String(repeating: "x", count: 5000) + "\n")
        XCTAssertEqual(l.problems.count, 1)
        XCTAssertLessThan(l.problems[0].count, 200)
    }

    func testAHundredThousandBadLinesListTwentyProblemsAndCountTheRest() {
        let text = String(repeating: "not a key\n", count: 100_000)
        let l = Configuration.parse(text)
        XCTAssertEqual(l.problems.count, Configuration.problemsShown + 1)
        XCTAssertEqual(l.problems.last, "Configuration: 99980 more problems not shown; run anchor-alert config --check after mending these")
        XCTAssertEqual(l.problems.first, "Configuration: line 1: expected key = value, not not a key")
    }

    func testABadFileIsOneConfigurationFaultAndACleanOneNone() {
        XCTAssertNil(Configuration.fault(for: []))
        let one = Configuration.fault(for: ["Configuration: line 2: unknown key watch.wndow"])
        XCTAssertEqual(one?.kind, .config)
        XCTAssertEqual(one?.message, "Configuration: line 2: unknown key watch.wndow")
        XCTAssertEqual(Configuration.fault(for: ["a", "b"])?.message, "Configuration: 2 problems, running on defaults for those keys")
    }

    private func write(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }
}
