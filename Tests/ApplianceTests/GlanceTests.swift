#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Journal
import Recordings
import WatchCore
import XCTest

/// What the skipper sees at a glance: status's lines, the live view's frame, the swing's offer
/// and its decision through the real binary, --version.
final class GlanceTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory("glance") }
    override func tearDown() { removeTree(dir) }

    func cli(_ args: [String], box: MiniBox?, env: [String: String] = [:]) -> (code: Int32, out: String, err: String) {
        runProgram([applianceBinary] + args + ["--runtime-dir", dir, "--config", "/dev/null"],
                   whileWaiting: box.map { b in { b.turn(timeoutMs: 5) } })
    }

    /// A box whose skipper marked late, 30 m south of the anchor, then a wind shift swung the
    /// boat 90 degrees over 20 minutes: the swing shows the anchor.
    func swungBox() throws -> MiniBox {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0, count: 3)
        func at(_ east: Double, _ north: Double) -> Coordinate {
            let d = (east * east + north * north).squareRoot()
            var b = atan2(east, north) * 180 / .pi
            if b < 0 { b += 360 }
            return Geodesy.destination(from: MiniBox.origin, bearing: b, distance: Meters(d))
        }
        var state: UInt64 = 12345
        func noise() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 3 - 1.5
        }
        func boat(_ t: Double) -> Coordinate {
            let bearing = 180 + 90 * min(max((t - 600) / 1200, 0), 1) + 15 * sin(2 * .pi * t / 60)
            let b = bearing * .pi / 180
            return at(30 * sin(b) + noise(), 30 * cos(b) + noise())
        }
        for i in 0..<10 {
            box.now = box.now + .seconds(1)
            _ = box.handle(.reading(GPSReading(mode: .threeD, position: boat(Double(i)), accuracy: 3, received: box.now)))
        }
        _ = box.handle(.decision(.mark(.here)))
        for i in 10..<3600 {
            box.now = box.now + .seconds(1)
            _ = box.handle(.reading(GPSReading(mode: .threeD, position: boat(Double(i)), accuracy: 3, received: box.now)))
        }
        // The steady write, so the glance fields are on disk as of now.
        box.now = box.now + .seconds(31)
        _ = box.handle(.tick)
        return box
    }

    func testStatusOffersTheSwingsAnchorAndMarkFromSwingTakesItWithAReceipt() throws {
        let box = try swungBox()
        let status = cli(["status"], box: nil)
        XCTAssertEqual(status.code, 0, status.err)
        let offer = try XCTUnwrap(status.out.split(separator: "\n").first { $0.hasPrefix("The anchor seems to lie ") })
        XCTAssertTrue(offer.contains(" m north of the mark, give or take "), String(offer))
        XCTAssertTrue(offer.hasSuffix("To move the mark there: anchor-alert mark --from-swing"), String(offer))
        XCTAssertTrue(status.out.contains("Alert radius from the swing: "), status.out)
        let json = try JSON.parse(cli(["status", "--json"], box: nil).out)
        XCTAssertEqual(json["status"]?["swing"]?["settled"]?.bool, true)
        XCTAssertNotNil(json["status"]?["swing_offer"]?["distance_m"]?.double)

        // The Systems Check says it too, as a row that needs attention.
        let check = cli(["check"], box: nil)
        XCTAssertTrue(check.out.contains("Is the mark where the swing shows the anchor?"), check.out)
        XCTAssertTrue(check.out.contains("No: The anchor seems to lie "), check.out)
        let mark = cli(["mark", "--from-swing"], box: box)
        XCTAssertEqual(mark.code, 0, mark.err)
        XCTAssertTrue(mark.out.contains("Anchor marked from the swing at "), mark.out)
        XCTAssertLessThan(Geodesy.distance(try XCTUnwrap(box.watch.anchor), MiniBox.origin).value, 5)
    }

    func testMarkFromSwingBeforeTheSwingIsRefusedWithItsReason() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        _ = box.handle(.decision(.mark(.here)))
        let r = cli(["mark", "--from-swing"], box: box)
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.err, Words.refusal(.swingUnsettled) + "\n")
        XCTAssertEqual(cli(["mark", "--from-swing", "--ago", "5m"], box: nil).code, 64)
    }

    /// At the drop with the compass heading: the bow offset (1 m by default) ahead of the antenna.
    func testMarkWithTheHeadingPutsTheAnchorAtTheBow() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        let r = cli(["mark", "--heading", "90"], box: box)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("Bow offset: the anchor 1.0 m ahead of the antenna on 090°\n"), r.out)
        let anchor = try XCTUnwrap(box.watch.anchor)
        XCTAssertEqual(Geodesy.distance(anchor, MiniBox.origin).value, 1, accuracy: 0.05)
        XCTAssertEqual(Geodesy.bearing(from: MiniBox.origin, to: anchor), 90, accuracy: 1)
        XCTAssertEqual(cli(["mark", "--heading", "400"], box: nil).code, 64)
    }

    func testStatusSaysWhenTheReceiverReportsNoAccuracy() throws {
        var watch = Watch()
        for i in 0..<5 {
            _ = watch.handle(.reading(GPSReading(mode: .twoD, position: MiniBox.origin, received: Instant(seconds: Double(i)))),
                             at: Instant(seconds: Double(i)))
        }
        let lines = StatusCommand.current(snapshot(watch.status(at: Instant(seconds: 5))), now: WallTime(seconds: 1000))
        XCTAssertTrue(lines.contains("GPS reading: 1 s old, the receiver reports no accuracy"), "\(lines)")
        XCTAssertTrue(lines.contains("Boat: 54°20.478'N 013°30.390'E"), "\(lines)")
    }

    func snapshot(_ status: WatchStatus) -> StatusSnapshot {
        StatusSnapshot(status: status, now: Instant(seconds: 5), wall: WallTime(seconds: 1000),
                       writer: .init(bootID: "b", pid: 1, monotonic: 5), validFor: .seconds(75), checks: [])
    }

    func testChartPositionIsDegreesAndDecimalMinutes() {
        XCTAssertEqual(ChartPosition.text(Coordinate(latitude: 54.3413, longitude: 13.5065)), "54°20.478'N 013°30.390'E")
        XCTAssertEqual(ChartPosition.text(Coordinate(latitude: -33.85, longitude: -151.2095)), "33°51.000'S 151°12.570'W")
        XCTAssertEqual(ChartPosition.text(Coordinate(latitude: 0.00001, longitude: 7.999999)), "00°00.001'N 008°00.000'E")
        XCTAssertEqual(StatusCommand.degrees(47.4), "047°")
        XCTAssertEqual(StatusCommand.degrees(359.7), "000°")
    }

    // MARK: - The live view

    func testTheLiveViewDrawsTheRingAndTheStatusAndNeverBreaksAWord() throws {
        _ = try swungBox()
        let now = WallTime.now()
        let reading = SnapshotReading.read(directory: dir, now: now)
        guard case .current = reading else { return XCTFail("the box's snapshot should be current: \(reading)") }
        let words = Set(StatusCommand.lines(reading, now: now, directory: dir).flatMap { $0.split(separator: " ").map(String.init) })
        for width in [40, 60, 120] {
            let frame = WatchView.frame(reading, now: now, style: .init(colour: false, width: width))
            XCTAssertTrue(frame.contains { $0.contains("●") }, "the ring is drawn")
            for line in frame {
                XCTAssertFalse(line.contains("\u{1B}"), "plain means no escape codes: \(line)")
                // Only a single word longer than the width may overflow, and it stands alone.
                if DemoScreen.visibleWidth(line) > width {
                    XCTAssertEqual(line.split(separator: " ").count, 1, line)
                }
            }
            // Every word of the status lines appears whole: nothing was cut mid-word.
            let shown = Set(frame.flatMap { $0.split(separator: " ").map(String.init) })
            for w in words { XCTAssertTrue(shown.contains(w), "\(w) cut at width \(width)") }
        }
        let coloured = WatchView.frame(reading, now: now, style: .init(colour: true, width: 100))
        XCTAssertTrue(coloured.contains { $0.contains("\u{1B}[38;2;") }, "the ring in colour")
        XCTAssertTrue(coloured.contains { $0.contains("\u{1B}[1;9") }, "the verdict in a bright colour: \(coloured)")
    }

    func testTheLiveViewSaysWhenTheBoxIsNotRunning() {
        let frame = WatchView.frame(.missing, now: .now(), style: .init(colour: true, width: 80))
        XCTAssertTrue(frame.contains { $0.contains("Box not running") }, "\(frame)")
        XCTAssertFalse(frame.contains { $0.contains("●") }, "a ring with nothing lit")
    }

    func testWrapBreaksBetweenWords() {
        XCTAssertEqual(WatchView.wrap("Alert radius from the swing: 43 m", width: 20),
                       ["Alert radius from", "  the swing: 43 m"])
        XCTAssertEqual(WatchView.wrap("short", width: 20), ["short"])
        XCTAssertEqual(WatchView.wrap("a verylongwordthatdoesnotfit b", width: 10), ["a", "  verylongwordthatdoesnotfit", "  b"])
    }

    func testColourFollowsTermAndNoColor() {
        XCTAssertTrue(WatchCommand.colourAllowed(term: "xterm-256color", noColor: nil))
        XCTAssertTrue(WatchCommand.colourAllowed(term: "xterm-256color", noColor: ""))
        XCTAssertFalse(WatchCommand.colourAllowed(term: "xterm-256color", noColor: "1"))
        XCTAssertFalse(WatchCommand.colourAllowed(term: "dumb", noColor: nil))
        XCTAssertFalse(WatchCommand.colourAllowed(term: nil, noColor: nil))
    }

    func testWatchOnceThroughTheBinaryIsPlainInAPipe() throws {
        _ = try swungBox()
        let r = cli(["watch", "--once", "--width", "50"], box: nil)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertFalse(r.out.contains("\u{1B}"), "a pipe gets plain text")
        XCTAssertTrue(r.out.hasPrefix("Anchor Alert\n"), r.out)
        XCTAssertTrue(r.out.contains("The anchor seems to lie "), r.out)
        XCTAssertTrue(r.out.split(separator: "\n").allSatisfy { $0.count <= 50 || $0.split(separator: " ").count == 1 }, r.out)
    }

    func testVersion() throws {
        let r = runProgram([applianceBinary, "--version"], whileWaiting: nil)
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(r.out, "anchor-alert \(Version.number)\n")
        // The package's version starts with the same release.
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }
        let deb = String(decoding: try Files.read(root + "/image/build-deb.sh"), as: UTF8.self)
        XCTAssertTrue(deb.contains("VERSION=\(Version.number)~git"), "image/build-deb.sh names another release")
    }

    /// The service log says why a box rings the moment it starts: it came back ringing.
    func testTheServiceLogSaysTheBoxCameBackRinging() throws {
        let journalDir = dir + "/journal"
        let stamp = Stamp(monotonic: Instant(seconds: 10), wall: WallTime(seconds: 1_700_000_000))
        let opened = Journal.open(directory: journalDir, at: stamp)
        XCTAssertEqual(opened.journal.commit([.mark(anchor: MiniBox.origin, how: .here), .arm, .alarmStart(episode: 3)],
                                             at: stamp).saved, .saved)
        let r = runProgram(["/usr/bin/timeout", "-s", "TERM", "4", applianceBinary, "run", "--simulate", "hold",
                            "--switch", "on", "--config", "/dev/null", "--journal-dir", journalDir,
                            "--runtime-dir", dir + "/run"], whileWaiting: nil)
        XCTAssertTrue(r.out.contains("Alarm: ringing again after a restart, alarm 3 was not answered before the box stopped\n"),
                      r.out + r.err)
    }

    /// Killed while snoozed: the box rings again (a snooze's end was on a clock that restarted),
    /// and the log says the alarm was snoozed, not that it went unanswered (issue 26).
    func testTheServiceLogSaysASnoozedAlarmWasSnoozedWhenTheBoxStopped() throws {
        let journalDir = dir + "/journal"
        let stamp = Stamp(monotonic: Instant(seconds: 10), wall: WallTime(seconds: 1_700_000_000))
        let opened = Journal.open(directory: journalDir, at: stamp)
        XCTAssertEqual(opened.journal.commit([.mark(anchor: MiniBox.origin, how: .here), .arm, .alarmStart(episode: 3),
                                              .snooze(episode: 3, length: .seconds(300))], at: stamp).saved, .saved)
        let r = runProgram(["/usr/bin/timeout", "-s", "TERM", "4", applianceBinary, "run", "--simulate", "hold",
                            "--switch", "on", "--config", "/dev/null", "--journal-dir", journalDir,
                            "--runtime-dir", dir + "/run"], whileWaiting: nil)
        XCTAssertTrue(r.out.contains("Alarm: ringing again after a restart, alarm 3 was snoozed and a restart ends a snooze\n"),
                      r.out + r.err)
        XCTAssertFalse(r.out.contains("not answered"), r.out)
    }

    /// The recap learns the swing from the journal's track, as the box does, and says so.
    func testTheRecapSaysWhereTheSwingShowsTheAnchor() {
        let base = WallTime(seconds: 1_796_000_000)
        func at(_ east: Double, _ north: Double) -> Coordinate {
            let d = (east * east + north * north).squareRoot()
            var b = atan2(east, north) * 180 / .pi
            if b < 0 { b += 360 }
            return Geodesy.destination(from: MiniBox.origin, bearing: b, distance: Meters(d))
        }
        let mark = at(0, -30)
        var entries = [HistoryEntry(at: base, event: .mark(mark))]
        // One track point every 2 s (the journal keeps every fix while anything happens, fewer
        // while calm) over 90 minutes: a 90 degree wind shift swings the boat west.
        for i in stride(from: 2, to: 5400, by: 2) {
            let t = Double(i)
            let bearing = (180 + 90 * min(max((t - 600) / 1200, 0), 1) + 15 * sin(2 * .pi * t / 60)) * .pi / 180
            let p = at(30 * sin(bearing) + sin(t * 0.37), 30 * cos(bearing) + cos(t * 0.73))
            entries.append(HistoryEntry(at: base + .seconds(t), event: .fix(position: p, accuracy: 3, distance: Geodesy.distance(mark, p))))
        }
        let recap = Recap.build(entries, since: base, now: base + .seconds(5400))
        let says = recap.items(.notes).map(\.says)
        XCTAssertTrue(says.contains { $0.hasPrefix("The anchor seems to lie ") && $0.contains(" m north of the mark") }, "\(says)")
        // Released: nothing to say about a mark that is gone.
        entries.append(HistoryEntry(at: base + .seconds(5401), event: .release))
        XCTAssertFalse(Recap.build(entries, since: base, now: base + .seconds(5402)).items(.notes).contains { $0.says.hasPrefix("The anchor seems") })
    }

    func testTheControlProtocolCarriesAMarkFromTheSwing() {
        let line = ControlProtocol.request(id: "7", .mark(.fromSwing))
        let parsed = ControlProtocol.parse(Array(line.utf8))
        XCTAssertEqual(parsed.id, "7")
        XCTAssertEqual(try? parsed.result.get(), .mark(.fromSwing))
    }
}
