import Glibc
import LightsAndSounds
import LightsAndSoundsTestSupport
import WatchCore
import XCTest

/// The pictures in Docs/ring/ are generated here from the renderer, never drawn by hand. This
/// test fails when a picture no longer matches what the renderer draws; regenerate them with
/// `RING_PICTURES=write swift test --filter RingPictureTests`.
final class RingPictureTests: XCTestCase {
    struct Scene {
        var file: String
        var title: String
        var caption: String
        var status: WatchStatus
        var now: Instant
        var calmSince: Instant
    }

    static let t0 = Fixture.t0
    /// On the throb's grid: the brightest and the dimmest frame of a breath.
    static let peak = Instant(nanoseconds: 800_000_000 * 12_500)

    static let scenes: [Scene] = {
        let t0 = RingPictureTests.t0
        func s(_ file: String, _ title: String, _ caption: String, _ status: WatchStatus,
               now: Instant = t0, calmSince: Instant = t0) -> Scene {
            Scene(file: file, title: title, caption: caption, status: status, now: now, calmSince: calmSince)
        }
        return [
            s("no-anchor", "No anchor", "Blue, broken: nothing at stake", Fixture.status(.noAnchor, .off)),
            s("holding-alarm-off", "Holding, alarm off", "Green, broken ring", Fixture.status(.holding, .off)),
            s("holding-armed", "Holding, alarm on", "Green, whole ring", Fixture.status(.holding, .armed)),
            s("holding-armed-night", "Holding, alarm on, night glow", "After 15 minutes of calm",
              Fixture.status(.holding, .armed), now: t0 + .seconds(900)),
            s("checking-armed", "Checking, alarm on", "Amber fills clockwise: 40%",
              Fixture.status(.checking(progress: 0.4), .armed)),
            s("checking-alarm-off", "Checking, alarm off", "Amber fills clockwise: 75%",
              Fixture.status(.checking(progress: 0.75), .off)),
            s("dragging-alarm-off", "Dragging, alarm off", "Red, broken ring: won't ring",
              Fixture.status(.dragging, .off)),
            s("alarm-throb-bright", "Alarm", "Throbbing at full brightness: brightest",
              Fixture.status(.dragging, .ringing(episode: 1)), now: RingPictureTests.peak),
            s("alarm-throb-dim", "Alarm", "Throbbing at full brightness: dimmest",
              Fixture.status(.dragging, .ringing(episode: 1)), now: RingPictureTests.peak + .milliseconds(400)),
            s("snoozed", "Snoozing 2:30", "The arc runs back to 12 o'clock",
              Fixture.status(.dragging, .snoozed(until: t0 + .seconds(150), episode: 1))),
            s("cant-judge-armed", "Can't judge, alarm on", "The one grey",
              Fixture.status(.cantJudge(.stale), .armed)),
            s("fault-holding-armed", "Holding, alarm on, fault", "Fault marker at 6 o'clock",
              Fixture.status(.holding, .armed, faults: [Fixture.gpsFault])),
            s("fault-cant-judge-armed", "Can't judge, GPS lost", "Grey, with the fault marker",
              Fixture.status(.cantJudge(.noReading), .armed, faults: [Fixture.gpsFault])),
        ]
    }()

    static var docsDirectory: String {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/LightsAndSoundsTests/RingPictureTests.swift
        return parts.joined(separator: "/") + "/Docs/ring"
    }

    func testDocsPicturesAreTheRenderersFrames() throws {
        let renderer = RingRenderer(settings: Fixture.settings(pixels: 16))
        let write = getenv("RING_PICTURES").map { String(cString: $0) } == "write"
        if write { mkdir(Self.docsDirectory, 0o755) }
        for scene in Self.scenes {
            let frame = renderer.frame(scene.status, at: scene.now, calmSince: scene.calmSince)
            let svg = RingPicture.svg(frame, layout: renderer.layout, title: scene.title, caption: scene.caption)
            let path = "\(Self.docsDirectory)/\(scene.file).svg"
            if write {
                try writeFile(path, svg)
            } else {
                let committed = try readFile(path)
                XCTAssertEqual(committed, svg, "\(path) is stale: run RING_PICTURES=write swift test --filter RingPictureTests")
            }
        }
    }

    func testPictureDrawsEveryPixelInItsDisplayColour() {
        let layout = RingLayout(count: 8)
        var frame = Array(repeating: RGB.black, count: 8)
        frame[2] = RGB(255, 0, 0)
        let svg = RingPicture.svg(frame, layout: layout, title: "A <test>")
        XCTAssertEqual(svg.components("<circle").count - 1, 1 + 8 + 1)  // track, pixels, one glow
        XCTAssertTrue(svg.contains("fill=\"#FF0000\""))
        XCTAssertTrue(svg.contains("A &lt;test&gt;"))
        // Pixel 2 of 8 sits at 3 o'clock: right of centre, level with it.
        XCTAssertTrue(svg.contains("cx=\"204.0\" cy=\"120.0\" r=\"13.0\" fill=\"#FF0000\""))
    }

    func testTerminalRingDrawsTheFrameAsACircle() {
        let layout = RingLayout(count: 12, topPixel: 0)
        var frame = Array(repeating: RGB(0, 40, 0), count: 12)
        frame[3] = .black
        let plain = TerminalRing.lines(frame, layout: layout, colour: false)
        XCTAssertEqual(plain.count, 5)
        let all = plain.joined()
        XCTAssertEqual(all.filter { $0 == "●" }.count, 11)
        XCTAssertEqual(all.filter { $0 == "·" }.count, 1)
        // 12 o'clock on the top line, centred; 3 o'clock (the dark pixel) at the right end of the middle line.
        XCTAssertEqual(Array(plain[0])[4], "●")
        XCTAssertEqual(Array(plain[4])[4], "●")
        XCTAssertEqual(plain[2].last, "·")
        let coloured = TerminalRing.render(frame, layout: layout)
        let d = Gamma.display(RGB(0, 40, 0))
        XCTAssertTrue(coloured.contains("\u{1B}[38;2;\(d.r);\(d.g);\(d.b)m●"))
    }
}

extension String {
    func components(_ separator: String) -> [Substring] {
        var out: [Substring] = []
        var rest = self[...]
        while let r = rest.range(of: separator) {
            out.append(rest[..<r.lowerBound])
            rest = rest[r.upperBound...]
        }
        out.append(rest)
        return out
    }
}

struct FileError: Error, CustomStringConvertible {
    var description: String
}

func readFile(_ path: String) throws -> String {
    guard let f = fopen(path, "rb") else { throw FileError(description: "\(path): cannot open (errno \(errno))") }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        bytes.append(contentsOf: buffer[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}

func writeFile(_ path: String, _ text: String) throws {
    guard let f = fopen(path, "wb") else { throw FileError(description: "\(path): cannot create (errno \(errno))") }
    defer { fclose(f) }
    let bytes = Array(text.utf8)
    guard fwrite(bytes, 1, bytes.count, f) == bytes.count else { throw FileError(description: "\(path): short write") }
}
