#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Journal
import WatchCore
import XCTest

/// What a skipper types, as they type it, through the real binary (issue 26, "Smaller, for a
/// skipper's hands"): bare `anchor-alert` is the recap, meters and seconds with or without their
/// unit, `--to now` and a `--to` a little ahead of the clock, and the default export is the night.
final class SkippersHandsTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory("hands") }
    override func tearDown() { removeTree(dir) }

    func cli(_ args: [String], box: MiniBox? = nil) -> (code: Int32, out: String, err: String) {
        runProgram([applianceBinary] + args + ["--runtime-dir", dir, "--config", "/dev/null"],
                   whileWaiting: box.map { b in { b.turn(timeoutMs: 5) } })
    }

    func save(_ entries: [HistoryEntry]) -> String {
        let path = dir + "/history.jsonl"
        let text = entries.map(HistoryLines.encode).joined(separator: "\n") + "\n"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try? FileDescriptor(borrowing: fd).writeAll(Array(text.utf8))
        close(fd)
        return path
    }

    /// A night on a 30 m circle: armed, the alarm rang and the skipper slid the switch off to stop
    /// it and on again at once; it rang again 40 s after the first, in the same minute, in nearly
    /// the same place. The track is a fix every 10 s, 35 m east of the anchor after the drag.
    func twoWatchNight() -> (entries: [HistoryEntry], firstAlarm: WallTime) {
        let t0 = WallTime(seconds: (WallTime.now().seconds / 60).rounded(.down) * 60 - 7200)
        var e: [HistoryEntry] = [
            .init(at: t0, event: .mark(MiniBox.origin)), .init(at: t0 + .seconds(1), event: .radius(30)),
            .init(at: t0 + .seconds(10), event: .arm),
        ]
        for s in stride(from: 0, through: 3600, by: 10) {
            let east = s < 1100 ? 5.0 : 35.0 + Double(s - 1100) / 1000
            e.append(.init(at: t0 + .seconds(Double(s) + 0.5), event: .fix(
                position: Geodesy.destination(from: MiniBox.origin, bearing: 90, distance: Meters(east)), accuracy: 3, distance: Meters(east))))
        }
        e += [
            .init(at: t0 + .seconds(1205), event: .alarmStart(episode: 1)),
            .init(at: t0 + .seconds(1215), event: .disarm),
            .init(at: t0 + .seconds(1225), event: .arm),
            .init(at: t0 + .seconds(1245), event: .alarmStart(episode: 2)),
        ]
        e.sort { $0.at < $1.at }
        return (e, t0 + .seconds(1205))
    }

    func testBareAnchorAlertIsTheRecap() {
        let history = save(twoWatchNight().entries)
        let recap = cli(["recap", "--history", history, "--since", "3h"])
        XCTAssertEqual(recap.code, 0, recap.err)
        XCTAssertTrue(recap.out.contains("Alarm"), recap.out)
        let bare = cli(["--history", history, "--since", "3h"])
        XCTAssertEqual(bare.code, recap.code, bare.err)
        XCTAssertEqual(bare.out, recap.out)
        // With nothing at all: the same as `anchor-alert recap`, never the usage.
        let none = runProgram([applianceBinary])
        let plain = runProgram([applianceBinary, "recap"])
        XCTAssertFalse(none.out.hasPrefix("Usage:"), none.out)
        XCTAssertEqual(none.code, plain.code)
        XCTAssertEqual(none.out, plain.out)
        XCTAssertEqual(none.err, plain.err)
        let help = runProgram([applianceBinary, "--help"])
        XCTAssertEqual(help.code, 0)
        XCTAssertTrue(help.out.hasPrefix("Usage: anchor-alert <command>"), help.out)
    }

    func testMetersWithTheirUnit() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        for (args, says) in [(["radius", "30m"], "Alert radius: 30 m"), (["radius", "40", "m"], "Alert radius: 40 m"),
                             (["radius", "45 m"], "Alert radius: 45 m")] {
            let r = cli(args, box: box)
            XCTAssertEqual(r.code, 0, "\(args): \(r.err)")
            XCTAssertEqual(r.out, "Sent, waiting for the box\n\(says)\n", "\(args)")
        }
        XCTAssertEqual(box.watch.radius, 45)
        let rode = cli(["radius", "--rode", "40m", "--depth", "8 m"], box: box)
        XCTAssertEqual(rode.code, 0, rode.err)
        XCTAssertTrue(rode.out.hasSuffix("Alert radius: 41 m\n"), rode.out)
        let mark = cli(["mark", "--bearing", "90", "--distance", "20m"], box: box)
        XCTAssertEqual(mark.code, 0, mark.err)
        XCTAssertEqual(box.watch.anchor.map { Geodesy.distance($0, MiniBox.origin).value.rounded() }, 20)
        XCTAssertEqual(cli(["radius", "30 ft"], box: box).code, 64)
        XCTAssertEqual(cli(["radius", "30", "ft"], box: box).code, 64)
    }

    func testAgoWithoutAUnitIsSeconds() throws {
        let now = WallTime.now()
        let there = Geodesy.destination(from: MiniBox.origin, bearing: 0, distance: 25)
        let history = save([.init(at: now - .seconds(11), event: .fix(position: there, accuracy: 3, distance: nil)),
                            .init(at: now - .seconds(600), event: .fix(position: MiniBox.origin, accuracy: 3, distance: nil))])
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        let r = cli(["mark", "--ago", "10", "--history", history], box: box)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("Where the boat was at "), r.out)
        XCTAssertEqual(box.watch.anchor.map { Geodesy.distance($0, there).value.rounded() }, 0, "10 seconds ago, not 10 minutes")
    }

    func testExportToNowAndToAFewMinutesAhead() throws {
        let history = save(twoWatchNight().entries)
        let now = cli(["export", "--history", history, "--from", "3h", "--to", "now"])
        XCTAssertEqual(now.code, 0, now.err)
        XCTAssertTrue(now.out.contains("<trkpt"), now.out)
        // The skipper's watch runs a little ahead of the box's clock.
        let ahead = (WallTime.now() + .seconds(300)).clock
        let from = (WallTime.now() - .seconds(3 * 3600)).clock
        let r = cli(["export", "--history", history, "--from", from, "--to", ahead])
        XCTAssertEqual(r.code, 0, "--to \(ahead): \(r.err)")
        XCTAssertTrue(r.out.contains("<trkpt"), r.out)
    }

    /// The default export is the night: the alarm before the switch was slid off and on is in it.
    /// Alarm names and labels are each their own, and the track's ends are explained.
    func testTheDefaultExportIsTheNightWithLabelsThatDoNotCollide() throws {
        let history = save(twoWatchNight().entries)
        let gpx = cli(["export", "--gpx", "--history", history])
        XCTAssertEqual(gpx.code, 0, gpx.err)
        let names = gpx.out.split(separator: "\n").filter { $0.contains("<name>Alarm") }.map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(names.count, 2, gpx.out)
        XCTAssertEqual(Set(names).count, 2, "\(names)")
        let last = cli(["export", "--gpx", "--last-watch", "--history", history])
        XCTAssertEqual(last.out.components(separatedBy: "<name>Alarm").count - 1, 1, "--last-watch keeps only the last watch")

        let svg = cli(["export", "--svg", "--history", history])
        XCTAssertEqual(svg.code, 0, svg.err)
        let labels = svg.out.split(separator: "\n").filter { $0.contains(">Alarm") }.map { line -> (x: Double, y: Double, text: String) in
            func attribute(_ name: String) -> Double {
                let start = line.range(of: " \(name)=\"")!.upperBound
                return Double(line[start...].prefix { $0 != "\"" })!
            }
            let text = line[line.range(of: ">")!.upperBound...].prefix { $0 != "<" }
            return (attribute("x"), attribute("y"), String(text))
        }
        XCTAssertEqual(labels.count, 2, svg.out)
        if labels.count == 2 {
            XCTAssertNotEqual(labels[0].text, labels[1].text)
            let apart = abs(labels[0].y - labels[1].y) >= 16 || abs(labels[0].x - labels[1].x) >= SVGWriter.labelWidth(labels[0].text)
            XCTAssertTrue(apart, "alarm labels print over each other: \(labels)")
        }
        XCTAssertTrue(svg.out.contains(">Track starts "), "the hollow start marker is explained")
        XCTAssertTrue(svg.out.contains(">Track ends "), "the filled end marker is explained")
    }

    /// A watch long after the last one, or after the anchor was released, is another night.
    func testTheNightStopsAtAReleaseOrALongGap() throws {
        let (entries, firstAlarm) = twoWatchNight()
        var released = entries
        released.append(.init(at: firstAlarm + .seconds(15), event: .release))
        released.append(.init(at: firstAlarm + .seconds(18), event: .mark(MiniBox.origin)))
        released.sort { $0.at < $1.at }
        let night = try NightTrack.build(released, range: .night, now: WallTime.now())
        XCTAssertEqual(night.rings.map(\.episode), [2])
        let joined = try NightTrack.build(entries, range: .night, now: WallTime.now())
        XCTAssertEqual(joined.rings.map(\.episode), [1, 2])
        let late = entries.map { e -> HistoryEntry in
            var e = e
            if e.at > firstAlarm + .seconds(16) { e.at = e.at + .seconds(4 * 3600) }
            return e
        }
        XCTAssertEqual(try NightTrack.build(late, range: .night, now: WallTime.now() + .seconds(5 * 3600)).rings.map(\.episode), [2])
    }
}
