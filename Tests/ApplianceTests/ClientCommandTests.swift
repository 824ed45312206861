#if canImport(Glibc)
import Glibc
#endif
@testable import Appliance
import WatchCore
import XCTest

/// The real anchor-alert binary as the client, against the miniature box loop.
final class ClientCommandTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory("cli") }
    override func tearDown() { removeTree(dir) }

    func cli(_ args: [String], box: MiniBox?) -> (code: Int32, out: String, err: String) {
        runProgram([applianceBinary] + args + ["--runtime-dir", dir, "--config", "/dev/null"],
                   whileWaiting: box.map { b in { b.turn(timeoutMs: 5) } })
    }

    func testSnoozeSaysSentThenTheReceiptAndASecondSnoozeIsRefused() throws {
        let box = try MiniBox(directory: dir)
        box.ringing()
        let r = cli(["snooze"], box: box)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.out, "Sent, waiting for the box\nSnoozed for 5:00\n")
        XCTAssertEqual(box.watch.alarm.kind, .snoozed)
        // Someone else, reading the same episode from an older look, answers it again.
        let again = cli(["snooze", "--episode", "1"], box: box)
        XCTAssertEqual(again.code, 1)
        XCTAssertEqual(again.err, "Can't snooze: that alarm was already answered\n")
    }

    func testSnoozeWithNothingRingingIsRefusedFromTheStatus() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        let r = cli(["snooze"], box: box)
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.err, "Can't snooze: the alarm is not ringing\n")
        XCTAssertEqual(box.journal, [], "nothing was sent")
    }

    func testSnoozeWithAFaultSoundingSnoozesTheFaultWithAReceipt() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        _ = box.handle(.decision(.mark(.here)))
        _ = box.handle(.armSwitch(on: true))
        _ = box.handle(.faultRaised(Fault(.receiver, "GPS: receiver unplugged")))
        XCTAssertTrue(box.watch.faultSounding)
        let r = cli(["snooze"], box: box)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.out, "Sent, waiting for the box\nFault sound snoozed for \(Words.countdown(box.watch.settings.snooze)): it sounds again if the fault is still there\n")
        XCTAssertFalse(box.watch.faultSounding, "the fault sound is snoozed")
        XCTAssertEqual(box.watch.alarm, .armed, "no alarm was answered")
        XCTAssertNotNil(box.watch.faults[.receiver], "the fault stays shown")
    }

    /// The switch already on ARM (its slide refused for no anchor): the mark arms the box, and
    /// its one answer says so, in words and in the JSON (issue 26, "Words that match").
    func testAMarkThatArmsTheBoxSaysSo() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        _ = box.handle(.armSwitch(on: true))
        XCTAssertEqual(box.watch.alarm, .off, "refused: no anchor yet")
        let mark = cli(["mark"], box: box)
        XCTAssertEqual(mark.code, 0, mark.err)
        XCTAssertTrue(mark.out.hasPrefix("Sent, waiting for the box\nAnchor marked at 54.341300,13.50"), mark.out)
        XCTAssertTrue(mark.out.hasSuffix(", alarm on\n"), mark.out)
        XCTAssertEqual(box.watch.alarm, .armed)
        let json = try MiniBox(directory: temporaryDirectory("cli-json"))
        defer { removeTree(json.directory) }
        json.fixes(east: 0)
        _ = json.handle(.armSwitch(on: true))
        let r = runProgram([applianceBinary, "mark", "--json", "--runtime-dir", json.directory, "--config", "/dev/null"],
                           whileWaiting: { json.turn(timeoutMs: 5) })
        XCTAssertEqual(r.code, 0, r.err)
        let reply = try JSON.parse(r.out)
        XCTAssertEqual(reply["alarm"]?.string, "armed", r.out)
        XCTAssertEqual(reply["says"]?.string?.hasSuffix(", alarm on"), true, r.out)
    }

    /// Through the real journal: the mark that arms is answered once, the arm's own receipt
    /// going to the box's surfaces (the chirp, the ring, the service log) only.
    func testAMarkThatArmsIsAnsweredOnce() {
        let rig = ReceiptTests.Rig()
        rig.fixes(east: 0, count: 10)
        rig.box.handle(.armSwitch(on: true), now: rig.now)
        var answers: [DecisionOutcome] = []
        rig.box.handle(.decision(.mark(.here)), now: rig.now) { answers.append($0) }
        rig.settle()
        XCTAssertEqual(answers.count, 1, "\(answers)")
        guard case .accepted(let receipt, true)? = answers.first else { return XCTFail("\(answers)") }
        XCTAssertEqual(receipt.decision, .mark(.here))
        XCTAssertEqual(receipt.alarm, .armed)
        XCTAssertEqual(rig.receipts.map(\.0.decision), [.mark(.here), .arm], "both confirmed on the box")
    }

    /// A fault that sounds says what sounds and what quiets it, in the receipt's words, not
    /// "(sounding)"; once snoozed it is shown without it (issue 26, "Words that match").
    func testStatusSaysAFaultSoundsAndHowToSilenceIt() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        _ = box.handle(.decision(.mark(.here)))
        _ = box.handle(.armSwitch(on: true))
        _ = box.handle(.faultRaised(Fault(.receiver, "GPS: receiver unplugged")))
        let sounding = cli(["status"], box: box)
        XCTAssertTrue(sounding.out.contains("\nGPS: receiver unplugged (fault sound on: anchor-alert snooze silences it)\n"), sounding.out)
        XCTAssertFalse(sounding.out.contains("(sounding)"), sounding.out)
        XCTAssertEqual(cli(["snooze"], box: box).code, 0)
        let snoozed = cli(["status"], box: box)
        XCTAssertTrue(snoozed.out.contains("\nGPS: receiver unplugged\n"), snoozed.out)
    }

    /// On a box where nothing can sound the alarm (no buzzer and no siren fitted) a fault that
    /// would sound never says its sound is on: nothing beeps, and the first line says so.
    func testAFaultOnABoxThatCannotSoundNeverSaysItsSoundIsOn() throws {
        let box = try MiniBox(directory: dir, fitted: [.gpsd, .receiver, .armSwitch, .button, .ledRing, .journal, .watchdog],
                              absent: [.buzzer, .siren])
        box.fixes(east: 0)
        _ = box.handle(.decision(.mark(.here)))
        _ = box.handle(.armSwitch(on: true))
        _ = box.handle(.faultRaised(Fault(.receiver, "GPS: receiver unplugged")))
        XCTAssertTrue(box.watch.faultSounding, "the watch asks for the fault sound")
        let out = cli(["status"], box: box).out
        XCTAssertTrue(out.hasPrefix("Won't ring: nothing can sound the alarm"), out)
        XCTAssertTrue(out.contains("\nGPS: receiver unplugged\n"), out)
        XCTAssertFalse(out.contains("fault sound on"), out)
    }

    /// The GPS-lost fault says how long the GPS has been lost as of when `status` and `check`
    /// are run, not as of the raise or the last write: with gpsd pulled, a first night run
    /// again showed "no usable GPS reading for 1:00" two and a half minutes in.
    func testTheGPSFaultSaysHowLongAsOfWhenItIsRead() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        _ = box.handle(.decision(.mark(.here)))
        _ = box.handle(.armSwitch(on: true))
        for _ in 0..<70 {
            box.now = box.now + .seconds(1)
            _ = box.handle(.tick)
        }
        let raised = try XCTUnwrap(box.watch.faults[.gpsLost], "no GPS fault after 70 s without a reading")
        XCTAssertEqual(raised.message, "GPS: no usable GPS reading for 1:00, can't judge a drag")
        // 3 s of this machine's time pass with no write: the reader counts them.
        usleep(3_000_000)
        let out = cli(["status"], box: nil).out
        let line = try XCTUnwrap(out.split(separator: "\n").first { $0.hasPrefix("GPS: no usable GPS reading for ") }, out)
        XCTAssertTrue(["1:13", "1:14", "1:15"].contains { line.contains("for \($0),") }, "70 s without a reading, 3 s ago: \(line)")
        let check = cli(["check"], box: nil).out
        let row = try XCTUnwrap(check.split(separator: "\n").first { $0.contains("Is the GPS reading fresh?") }, check)
        XCTAssertTrue(["1:13", "1:14", "1:15"].contains { row.contains("for \($0),") }, row.description)
    }

    /// The configuration row's fix fits what its fault names: a line, a key, or only a count.
    func testCheckGivesAConfigurationFixThatFitsTheFault() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        let cases = [
            ("Configuration: line 2: unknown key watch.radiuss, did you mean watch.radius?", "Fix the line the fault names, then restart the box"),
            ("Configuration: gpio.button must name a line (GPIO17) or an offset on gpio.chip", "Fix the key the fault names, then restart the box"),
            ("Configuration: 3 problems, running on defaults for those keys",
             "See each problem: anchor-alert config --check /etc/anchor-alert/anchor-alert.conf; fix them, then restart the box"),
        ]
        for (says, fix) in cases {
            _ = box.handle(.faultRaised(Fault(.config, says, pushes: false)))
            let check = cli(["check"], box: box)
            let lines = check.out.split(separator: "\n").map(String.init)
            guard let at = lines.firstIndex(where: { $0.contains(says) }) else { XCTFail(check.out); continue }
            XCTAssertTrue(lines.dropFirst(at + 1).first?.contains(fix) == true, "\(says): \(check.out)")
        }
    }

    func testMarkRadiusAndReleaseGetTheirReceipts() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        let mark = cli(["mark", "--bearing", "90", "--distance", "20"], box: box)
        XCTAssertEqual(mark.code, 0, mark.err)
        XCTAssertTrue(mark.out.hasPrefix("Sent, waiting for the box\nAnchor marked at 54.341300,13.50"), mark.out)
        XCTAssertEqual(box.watch.anchor.map { Geodesy.distance($0, MiniBox.origin).value.rounded() }, 20)
        let radius = cli(["radius", "--rode", "40", "--depth", "8"], box: box)
        XCTAssertEqual(radius.code, 0, radius.err)
        // sqrt(40² - 8²) = 39.19, + 1 m bow offset (default) = 40.19, rounded up: 41.
        XCTAssertEqual(radius.out, "Alert radius from rode and depth: 39.2 m along the bottom + 1.0 m bow to antenna = 41 m\n"
            + "Sent, waiting for the box\nAlert radius: 41 m\n")
        let tooBig = cli(["radius", "900"], box: box)
        XCTAssertEqual(tooBig.code, 1)
        XCTAssertEqual(tooBig.err, "Alert radius: choose 5 to 500 meters\n")
        let release = cli(["release", "--json"], box: box)
        XCTAssertEqual(release.code, 0)
        XCTAssertEqual(release.err, "Sent, waiting for the box\n")
        XCTAssertEqual(try JSON.parse(release.out)["says"]?.string, "Anchor released")
    }

    func testABoxThatNeverAnswersIsReportedAsNoAnswerNotDone() throws {
        let box = try MiniBox(directory: dir)
        box.autoSync = false  // the journal never syncs: no receipt ever comes
        box.fixes(east: 0)
        let start = BoxIdentity.monotonicSeconds()
        let r = cli(["mark", "--timeout", "1"], box: box)
        XCTAssertEqual(r.code, 3)
        XCTAssertGreaterThanOrEqual(BoxIdentity.monotonicSeconds() - start, 1.0)
        XCTAssertEqual(r.out, "Sent, waiting for the box\n", "never 'Anchor marked' without a receipt")
        XCTAssertTrue(r.err.hasPrefix("No answer from the box in 1 s: it may or may not have taken the mark."), r.err)
    }

    func testNoBoxMeansNotRunning() {
        let r = cli(["release"], box: nil)
        XCTAssertEqual(r.code, 4)
        XCTAssertEqual(r.out, "")
        XCTAssertTrue(r.err.hasPrefix("Box not running: nothing answers at \(dir)/control.sock"), r.err)
        XCTAssertEqual(cli(["snooze"], box: nil).code, 4)
        XCTAssertEqual(cli(["radius"], box: nil).code, 64)
        XCTAssertEqual(cli(["radius", "--rode", "5", "--depth", "10"], box: nil).code, 64)
    }

    func testStatusReadsWhatTheBoxSaid() throws {
        let box = try MiniBox(directory: dir)
        box.ringing()
        let r = cli(["status"], box: nil)
        XCTAssertEqual(r.code, 0, r.err)
        let lines = r.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.prefix(4)), ["Dragging", "Alarm", "Ringing: snooze it or slide the switch off",
                                                 "Distance to anchor: 80 m, bearing 270° from the boat, alert radius 30 m"])
        XCTAssertTrue(lines.contains("GPS reading: 0 s old, accuracy 3 m") || lines.contains("GPS reading: 1 s old, accuracy 3 m"), r.out)
        // At a glance: the farthest since the mark, the boat as a chartplotter shows it.
        XCTAssertTrue(lines.contains("Farthest from the anchor since the mark: 80 m"), r.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Boat: ") && $0.hasSuffix("'E") && $0.contains("°") }, r.out)
        let j = try JSON.parse(cli(["status", "--json"], box: nil).out)
        XCTAssertEqual(j["box"]?.string, "answering")
        XCTAssertEqual(j["status"]?["alarm"]?["episode"]?.int, 1)
    }
}
