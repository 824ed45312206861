#if canImport(Glibc)
import Glibc
#endif
@testable import Appliance
import Drivers
import Signals
import WatchCore
import XCTest

/// A harmless configuration typo is shown once where the skipper looks for it, never sounded,
/// never repeated on every client command (issue 26).
final class ConfigSaidOnceTests: XCTestCase {
    var dir = ""
    var config = ""
    override func setUp() {
        dir = temporaryDirectory("cfg")
        config = dir + "/anchor-alert.conf"
        let text = "[watch]\nradiuss = 40\n"
        XCTAssertTrue(FileManagerless.write(text, to: config))
    }
    override func tearDown() { removeTree(dir) }

    func run(_ args: [String]) -> (code: Int32, out: String, err: String) {
        runProgram([applianceBinary] + args + ["--runtime-dir", dir, "--config", config])
    }

    func testAClientCommandDoesNotRepeatTheConfigurationsComplaints() {
        let status = run(["status"])
        XCTAssertFalse(status.err.contains("radiuss"), status.err)
        XCTAssertFalse(status.out.contains("radiuss"), status.out)
    }

    func testConfigCheckSaysItWithTheNearestKey() {
        let check = runProgram([applianceBinary, "config", "--check", config])
        XCTAssertEqual(check.code, 1)
        XCTAssertEqual(check.out, "Configuration: line 2: unknown key watch.radiuss, did you mean watch.radius?\n")
    }

    func testAKeyFarFromAnyIsNotGivenASuggestion() {
        XCTAssertNil(Configuration.nearestKey(to: "watch.zzzzzz", in: ["watch.radius", "watch.snooze"]))
        XCTAssertEqual(Configuration.nearestKey(to: "watch.snoze", in: ["watch.radius", "watch.snooze"]), "watch.snooze")
    }

    func testTheConfigurationFaultIsShownButNeverSounded() {
        let trace = BoxTests.Trace()
        let box = Box(watch: Watch(settings: WatchSettings()), sources: [],
                      annunciator: Annunciator(buzzer: BoxTests.FakeBuzzer(trace), siren: BoxTests.FakeSiren(trace), book: DesignedSounds()),
                      log: BoxTests.FakeLog(trace), wall: { 1_700_000_000 })
        let problems = Configuration.parse("[watch]\nradiuss = 40\n").problems
        guard let fault = Configuration.fault(for: problems) else { return XCTFail("no fault for \(problems)") }
        box.handle(.faultRaised(fault), now: Instant(seconds: 10))
        XCTAssertNotNil(box.watch.faults[.config], "shown")
        XCTAssertFalse(box.watch.faultSounding, "never sounded")
        XCTAssertFalse(trace.events.contains("siren fault"), "\(trace.events)")
        XCTAssertFalse(trace.events.contains("buzzer on"), "\(trace.events)")
    }
}

/// Writes a small file without Foundation.
enum FileManagerless {
    static func write(_ text: String, to path: String) -> Bool {
        guard let f = fopen(path, "w") else { return false }
        defer { fclose(f) }
        return fputs(text, f) >= 0
    }
}
