import LightsAndSounds
import WatchCore
import XCTest

/// The ring driven by the real watch through a night's worst minutes: marked, armed, holding,
/// a drag (checking, then the alarm), a snooze, the switch off. Each frame is what the loop
/// would send; the test reads the ring as a skipper would: colour, how many pixels, whether it
/// moves.
final class RingWithWatchTests: XCTestCase {
    let anchor = Coordinate(latitude: 43.0, longitude: 5.0)

    func reading(north meters: Double, at t: Instant) -> GPSReading {
        let p = Coordinate(latitude: anchor.latitude + meters / 111_200, longitude: anchor.longitude)
        return GPSReading(mode: .threeD, position: p, accuracy: 3, received: t)
    }

    func testANightAsTheRingShowsIt() {
        var watch = Watch(settings: .scripted)
        var settings = RingSettings()
        settings.pixelCount = 12
        var presenter = RingPresenter(settings: settings, start: .zero)
        let working = settings.workingBrightness
        func lit(_ frame: [RGB], _ role: PaletteRole, _ level: Double = 1) -> Int {
            frame.filter { $0 == Gamma.drive(role.sRGB, brightness: level) }.count
        }
        var t = Instant(seconds: 1)
        var frames: [[RGB]] = []
        func step(_ event: Event) {
            _ = watch.handle(event, at: t)
            if let f = presenter.update(watch.status(at: t), at: t) { frames.append(f) }
        }
        // No anchor yet: blue, broken.
        step(.tick)
        XCTAssertEqual(lit(presenter.shown!, .neutral, working), 6)

        for _ in 0..<5 { step(.reading(reading(north: 2, at: t))); t = t + .seconds(1) }
        step(.decision(.mark(.at(anchor))))
        for _ in 0..<5 { step(.reading(reading(north: 2, at: t))); t = t + .seconds(1) }
        XCTAssertEqual(watch.verdict, .holding)
        XCTAssertEqual(lit(presenter.shown!, .holding, working), 6, "holding, alarm off: six of twelve")
        step(.armSwitch(on: true))
        XCTAssertEqual(lit(presenter.shown!, .holding, working), 12, "armed: the whole ring")

        // A quiet quarter of an hour: one frame for the night glow, no others.
        let before = frames.count
        for _ in 0..<1000 { step(.reading(reading(north: 2, at: t))); t = t + .seconds(1) }
        XCTAssertEqual(frames.count, before + 1)
        XCTAssertEqual(lit(presenter.shown!, .holding, settings.nightBrightness), 12)

        // The drag: checking fills amber, bright again.
        var checkingFills: [Int] = []
        while watch.alarm.kind != .ringing, t < Instant(seconds: 2000) {
            step(.reading(reading(north: 60, at: t)))
            if case .checking = watch.verdict { checkingFills.append(lit(presenter.shown!, .attention, working)) }
            t = t + .seconds(1)
        }
        XCTAssertFalse(checkingFills.isEmpty)
        XCTAssertEqual(checkingFills, checkingFills.sorted(), "checking's fill went backwards")
        XCTAssertEqual(watch.alarm.kind, .ringing)
        // Ringing: red, full brightness at the throb's peak, and the ring moves.
        let ringing = watch.status(at: t)
        let renderer = presenter.renderer
        let a = renderer.frame(ringing, at: Instant(nanoseconds: 0), calmSince: t)
        XCTAssertEqual(lit(a, .danger, 1), 12)
        XCTAssertNotEqual(renderer.frame(ringing, at: t + .milliseconds(200), calmSince: t), renderer.frame(ringing, at: t, calmSince: t))

        // Snoozed: a red arc that runs back; the whole ring lit at first.
        step(.button(.short))
        guard case .snoozed = watch.alarm else { return XCTFail("not snoozed: \(watch.alarm)") }
        XCTAssertEqual(lit(presenter.shown!, .danger, working), 12)
        let halfway = t + .seconds(150)
        XCTAssertEqual(lit(renderer.frame(watch.status(at: halfway), at: halfway, calmSince: t), .danger, working), 6)

        // Switched off while dragging: red, broken.
        for _ in 0..<10 { t = t + .seconds(1); step(.reading(reading(north: 60, at: t))) }
        step(.armSwitch(on: false))
        XCTAssertEqual(watch.verdict, .dragging)
        XCTAssertEqual(lit(presenter.shown!, .danger, working), 6)
    }
}
