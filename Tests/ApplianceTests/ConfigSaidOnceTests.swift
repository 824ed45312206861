#if canImport(Glibc)
import Glibc
#endif
@testable import Appliance
import Drivers
import LightsAndSounds
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
                      buzzerAndSiren: BuzzerAndSiren(buzzer: BoxTests.FakeBuzzer(trace), siren: BoxTests.FakeSiren(trace), book: DesignedSounds()),
                      log: BoxTests.FakeLog(trace), wall: { 1_700_000_000 })
        let problems = Configuration.parse("[watch]\nradiuss = 40\n").problems
        guard let fault = Configuration.fault(for: problems) else { return XCTFail("no fault for \(problems)") }
        box.handle(.faultRaised(fault), now: Instant(seconds: 10))
        XCTAssertNotNil(box.watch.faults[.config], "shown")
        XCTAssertFalse(box.watch.faultSounding, "never sounded")
        XCTAssertFalse(trace.events.contains("siren fault"), "\(trace.events)")
        XCTAssertFalse(trace.events.contains("buzzer on"), "\(trace.events)")
    }

    /// A `[gpio]` value that names no line (an offset with no chip to count it on) is a
    /// configuration problem like a typo: `config --check` says it, and the box started through
    /// its real wiring shows it in the one configuration fault, never sounded.
    static let badLine = "[gpio]\nchip = \"any\"\nbutton = \"22\"\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n"
    static let badLineSays = "Configuration: gpio.button must name a line (GPIO17) or an offset on gpio.chip"

    func testConfigCheckSaysAGPIOValueThatNamesNoLine() {
        XCTAssertTrue(FileManagerless.write(Self.badLine, to: config))
        let check = runProgram([applianceBinary, "config", "--check", config])
        XCTAssertEqual(check.code, 1, check.out)
        XCTAssertTrue(check.out.contains(Self.badLineSays + "\n"), check.out)
        XCTAssertFalse(check.out.contains("no problems"), check.out)
    }

    func testAGPIOValueThatNamesNoLineIsShownWithTheFilesProblemsNeverSounded() {
        let trace = BoxTests.Trace()
        let box = Box(watch: Watch(settings: WatchSettings()), sources: [],
                      buzzerAndSiren: BuzzerAndSiren(buzzer: BoxTests.FakeBuzzer(trace), siren: BoxTests.FakeSiren(trace), book: DesignedSounds()),
                      log: BoxTests.FakeLog(trace), wall: { 1_700_000_000 })
        let loaded = Configuration.parse(Self.badLine + "radiuss = 40\n[siren]\nenabled = false\n[ring]\nenabled = false\n")
        let now = Instant(seconds: 10)
        let devices = Wiring(config: loaded.configuration, now: now)
            .devices(simulate: "hold", speed: 1, realSwitch: false, problems: loaded.problems)
        defer { for part in devices.drivers.reversed() { part.stop(now: now) } }
        for f in devices.faults { box.handle(.faultRaised(f), now: now) }
        XCTAssertEqual(devices.faults.filter { $0.kind == .config }.count, 1, "one configuration fault: \(devices.faults)")
        XCTAssertEqual(box.watch.faults[.config]?.message, "Configuration: 2 problems, running on defaults for those keys")
        XCTAssertTrue(loaded.problems.contains(Self.badLineSays), "\(loaded.problems)")
        XCTAssertFalse(box.watch.faultSounding, "shown, never sounded: \(box.watch.faults)")
        XCTAssertFalse(trace.events.contains("siren fault"), "\(trace.events)")
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
