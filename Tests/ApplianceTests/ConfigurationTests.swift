@testable import Appliance
import Foundation
import XCTest

final class ConfigurationTests: XCTestCase {
    func testAnEmptyFileIsAllDefaults() {
        let l = Configuration.parse("")
        XCTAssertEqual(l.problems, [])
        XCTAssertEqual(l.configuration.watchSettings, Configuration().watchSettings)
    }

    func testKeysSetTheirValues() {
        let l = Configuration.parse("""
            # a comment
            [watch]
            radius = 45   # meters
            window = 30
            [gps]
            host = "plotter.local"
            port = 2948
            [ring]
            enabled = false
            """)
        XCTAssertEqual(l.problems, [])
        XCTAssertEqual(l.configuration.watchSettings.radius, 45)
        XCTAssertEqual(l.configuration.watchSettings.window, .seconds(30))
        XCTAssertEqual(l.configuration.gps.gpsd.host, "plotter.local")
        XCTAssertEqual(l.configuration.gps.gpsd.port, 2948)
        XCTAssertFalse(l.configuration.ring.enabled)
    }

    func testEveryProblemNamesItsLineAndKeyAndKeepsTheDefault() {
        let l = Configuration.parse("""
            [watch]
            radius = 3
            wndow = 5
            snooze = "long"
            [ring]
            pixels = 12x
            enabled = yes
            [nonsense]
            this is not a key
            """)
        XCTAssertEqual(l.problems, [
            "Configuration: line 2: watch.radius must be from 5 to 500 m, not 3; using 30",
            "Configuration: line 3: unknown key watch.wndow, did you mean watch.window?",
            "Configuration: line 4: watch.snooze must be a number, not \"long\"; using 300",
            "Configuration: line 6: ring.pixels must be a whole number, not 12x; using 12",
            "Configuration: line 7: ring.enabled must be true or false, not yes; using true",
            "Configuration: line 8: unknown section [nonsense], its keys are ignored",
            "Configuration: line 9: expected key = value, not this is not a key",
        ])
        XCTAssertEqual(l.configuration.watchSettings.radius, 30)
        XCTAssertEqual(l.configuration.ring.look.pixelCount, 12)
        for p in l.problems { XCTAssertFalse(p.contains("\u{2014}")) }
    }

    func testAWatchCombinationThatBreaksTheEvidenceRuleIsRefusedWithWordsWhy() {
        let l = Configuration.parse("""
            [watch]
            radius = 40
            min_fixes = 1
            fastest = 1
            confirmation = 1
            snooze = 120
            """)
        XCTAssertTrue(l.problems.contains(
            "Configuration: watch.min_fixes must be 2 or more: one stray GPS reading must never judge the position; the watch runs on its default evidence rule"),
            "\(l.problems)")
        XCTAssertTrue(l.problems.contains { $0.contains("watch.fastest must be 2 s or more") })
        let defaults = Configuration().watchSettings
        XCTAssertEqual(l.configuration.watchSettings.minFixes, defaults.minFixes)
        XCTAssertEqual(l.configuration.watchSettings.fastest, defaults.fastest)
        XCTAssertEqual(l.configuration.watchSettings.confirmation, defaults.confirmation)
        XCTAssertEqual(l.configuration.watchSettings.radius, 40, "the alert radius is no part of the evidence rule")
        for p in l.problems { XCTAssertFalse(p.contains("\u{2014}")) }
    }

    func testAWindowTooShortForMinFixesIsRefused() {
        let l = Configuration.parse("[watch]\nwindow = 4\nmin_fixes = 10\nstale_after = 4\n")
        XCTAssertTrue(l.problems.contains { $0.hasPrefix("Configuration: watch.window must be at least watch.min_fixes seconds") }, "\(l.problems)")
        XCTAssertEqual(l.configuration.watchSettings.window, Configuration().watchSettings.window)
    }

    func testGarbageNeverCrashesTheParser() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0..<200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = Configuration.parse(String(decoding: bytes, as: UTF8.self))
        }
    }

    func testAMissingDefaultFileIsDefaultsWithoutAFault() {
        let l = Configuration.load(path: "/nonexistent/anchor-alert.conf", explicit: false)
        XCTAssertEqual(l.problems, [])
        let explicit = Configuration.load(path: "/nonexistent/anchor-alert.conf", explicit: true)
        XCTAssertEqual(explicit.problems.count, 1)
    }

    func testTheDefaultFileReadsBackCleanly() {
        let text = ConfigCommand.defaultFile()
        // Uncommenting every key must give a clean file with the same values.
        let uncommented = text.split(separator: "\n").map { line in
            line.hasPrefix("# ") && line.contains(" = ") && !line.contains("(") ? String(line.dropFirst(2)) : String(line)
        }.joined(separator: "\n")
        let l = Configuration.parse(uncommented)
        XCTAssertEqual(l.problems, [])
        XCTAssertEqual(l.configuration.watchSettings, Configuration().watchSettings)
    }

    func testTheDocsListEveryKey() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("Docs/configuration.md"), encoding: .utf8)
        for key in ConfigurationKey.all {
            XCTAssertTrue(doc.contains("`\(key.fullName)`"), "Docs/configuration.md lacks \(key.fullName)")
        }
    }

    /// A key the box reads is never "(proposed)" in a document's key table (issue 26: Docs/ring.md
    /// said so of four keys that existed).
    func testNoDocCallsAKeyThatExistsProposed() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path).filter { $0.hasSuffix(".md") }
        XCTAssertTrue(docs.contains("ring.md"))
        for name in docs {
            let doc = try String(contentsOf: root.appendingPathComponent("Docs/" + name), encoding: .utf8)
            for line in doc.split(separator: "\n") where line.hasPrefix("| `") {
                for key in ConfigurationKey.all where line.hasPrefix("| `\(key.fullName)`") {
                    XCTAssertFalse(line.contains("(proposed"), "Docs/\(name): \(key.fullName) exists: \(line)")
                }
            }
        }
    }

    func testThePackagedConffileIsTheDefaultFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try String(contentsOf: root.appendingPathComponent("image/deb/anchor-alert.conf"), encoding: .utf8)
        XCTAssertEqual(shipped, ConfigCommand.defaultFile(),
                       "regenerate with: anchor-alert config --defaults > image/deb/anchor-alert.conf")
    }
}
