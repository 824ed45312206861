import LightsAndSounds
import WatchCore
import XCTest

final class RingRendererTests: XCTestCase {
    let t0 = Fixture.t0
    let renderer = RingRenderer(settings: Fixture.settings(pixels: 16))
    var working: Double { renderer.settings.workingBrightness }

    func colour(_ role: PaletteRole, _ level: Double = 1) -> RGB {
        Gamma.drive(role.sRGB, brightness: level * working)
    }

    func frame(_ status: WatchStatus, at now: Instant? = nil, calmSince: Instant? = nil) -> [RGB] {
        renderer.frame(status, at: now ?? t0, calmSince: calmSince ?? t0)
    }

    // MARK: - Every state

    func testHoldingArmedIsAWholeGreenRing() {
        XCTAssertEqual(frame(Fixture.status(.holding, .armed)), Array(repeating: colour(.holding), count: 16))
        XCTAssertEqual(frame(Fixture.status(.holding, .armed))[0], RGB(1, 13, 7))
    }

    func testAlarmOffIsABrokenRingOfTheSameColour() {
        let f = frame(Fixture.status(.holding, .off))
        for p in 0..<16 { XCTAssertEqual(f[p], p % 2 == 0 ? colour(.holding) : .black, "pixel \(p)") }
        // Told apart at a glance: half the pixels dark, in every position state.
        for verdict in [PositionVerdict.holding, .dragging, .cantJudge(.stale), .checking(progress: 1)] {
            let off = frame(Fixture.status(verdict, .off)).filter { $0 != .black }.count
            let on = frame(Fixture.status(verdict, .armed)).filter { $0 != .black }.count
            XCTAssertEqual(off, 8, "\(verdict)")
            XCTAssertEqual(on, 16, "\(verdict)")
        }
    }

    func testNoAnchorIsNeutralBlueAndBroken() {
        let f = frame(Fixture.status(.noAnchor, .off))
        XCTAssertEqual(f[0], colour(.neutral))
        XCTAssertEqual(f[1], .black)
        XCTAssertEqual(Set(f), [colour(.neutral), .black])
    }

    func testDraggingIsRedAndCantJudgeIsTheOneGrey() {
        XCTAssertEqual(Set(frame(Fixture.status(.dragging, .armed))), [colour(.danger)])
        for reason in CantJudgeReason.allCases {
            XCTAssertEqual(Set(frame(Fixture.status(.cantJudge(reason), .armed))), [colour(.cantJudge)], "\(reason)")
        }
        XCTAssertNotEqual(colour(.cantJudge), colour(.holding))
        XCTAssertNotEqual(colour(.cantJudge), colour(.danger))
    }

    // MARK: - Checking progress

    func testCheckingFillsAmberClockwiseFromTwelve() {
        let f = frame(Fixture.status(.checking(progress: 0.3), .armed))
        // 0.3 of 16 pixels, rounded up: 5 filled.
        for p in 0..<16 {
            XCTAssertEqual(f[p], p < 5 ? colour(.attention) : colour(.attention, RingRenderer.outlineLevel), "pixel \(p)")
        }
    }

    func testCheckingProgressGrowsMonotonicallyToTheWholeRing() {
        var last = 0
        for step in 0...100 {
            let progress = Double(step) / 100
            let filled = frame(Fixture.status(.checking(progress: progress), .armed)).filter { $0 == colour(.attention) }.count
            XCTAssertGreaterThanOrEqual(filled, last)
            XCTAssertGreaterThanOrEqual(filled, 1)
            last = filled
        }
        XCTAssertEqual(last, 16)
        XCTAssertEqual(RingRenderer.checkingFill(0.5, count: 16), 8)
        XCTAssertEqual(RingRenderer.checkingFill(0.51, count: 16), 9)
        XCTAssertEqual(RingRenderer.checkingFill(.nan, count: 16), 1)
        XCTAssertEqual(RingRenderer.checkingFill(7, count: 16), 16)
    }

    func testClockwiseFollowsTheMounting() {
        var s = Fixture.settings(pixels: 12)
        s.topPixel = 3
        s.clockwise = false
        let r = RingRenderer(settings: s)
        let f = r.frame(Fixture.status(.checking(progress: 0.25), .armed), at: t0, calmSince: t0)
        // Three filled pixels clockwise from 12 o'clock: wire 3, 2, 1 on a ring wired anticlockwise.
        let bright = Gamma.drive(PaletteRole.attention.sRGB, brightness: s.workingBrightness)
        XCTAssertEqual(f.indices.filter { f[$0] == bright }, [1, 2, 3])
        XCTAssertEqual(r.layout.position(ofPhysical: 1), 2)
        for p in 0..<12 { XCTAssertEqual(r.layout.position(ofPhysical: r.layout.physical(p)), p) }
    }

    // MARK: - Snooze countdown

    func testSnoozeShowsItsCountdown() {
        let until = t0 + .seconds(150)  // half of the 300 s snooze left
        let status = Fixture.status(.dragging, .snoozed(until: until, episode: 1))
        let f = frame(status)
        for p in 0..<16 {
            XCTAssertEqual(f[p], p < 8 ? colour(.danger) : .black, "pixel \(p)")
        }
        let lit = { (now: Instant) in self.frame(status, at: now).filter { $0 == self.colour(.danger) }.count }
        XCTAssertEqual(lit(until - .seconds(300)), 16)
        XCTAssertEqual(lit(until - .seconds(1)), 1)
        XCTAssertEqual(lit(until), 0)
        // The next change is when the eighth pixel goes out: 7/16 of 300 s before the end.
        let next = renderer.nextFrameChange(status, after: t0, calmSince: t0)
        XCTAssertEqual(next, until - .nanoseconds(131_250_000_000))
        XCTAssertEqual(lit(next!), 7)
        XCTAssertEqual(lit(next! - .nanoseconds(1)), 8)
    }

    func testSnoozeCountdownStepsOncePerPixel() {
        let until = t0 + .seconds(300)
        let status = Fixture.status(.checking(progress: 0.5), .snoozed(until: until, episode: 2))
        var now = t0
        var wakes = 0
        var frames: [[RGB]] = [frame(status, at: now)]
        while let next = renderer.nextFrameChange(status, after: now, calmSince: t0) {
            XCTAssertGreaterThan(next, now)
            now = next
            wakes += 1
            frames.append(frame(status, at: now))
            XCTAssertNotEqual(frames[frames.count - 1], frames[frames.count - 2], "woke at \(now) for nothing")
            if wakes > 100 { break }
        }
        XCTAssertEqual(wakes, 16)
        XCTAssertEqual(now, until)
    }

    // MARK: - Faults

    func testAFaultShowsWithoutHidingThePosition() {
        let plain = frame(Fixture.status(.holding, .armed))
        let faulted = frame(Fixture.status(.holding, .armed, faults: [Fixture.gpsFault]))
        XCTAssertEqual(faulted[8], Gamma.drive(PaletteRole.fault.sRGB, brightness: working))
        XCTAssertEqual(faulted[7], .black)
        XCTAssertEqual(faulted[9], .black)
        let others = (0..<16).filter { ![7, 8, 9].contains($0) }
        XCTAssertEqual(others.map { faulted[$0] }, others.map { plain[$0] })
        // On a red ring the marker still stands apart: it has dark pixels either side.
        let red = frame(Fixture.status(.dragging, .armed, faults: [Fixture.gpsFault]))
        XCTAssertEqual(red[7], .black)
        XCTAssertEqual(red[6], colour(.danger))
    }

    // MARK: - Brightness

    func testRingingIsFullBrightnessAndThrobs() {
        let status = Fixture.status(.dragging, .ringing(episode: 1))
        let peak = Instant(nanoseconds: 800_000_000 * 12_500)  // on the throb's grid, phase 0
        XCTAssertEqual(frame(status, at: peak)[0], Gamma.drive(PaletteRole.danger.sRGB, brightness: 1))
        let trough = peak + .milliseconds(400)
        XCTAssertEqual(frame(status, at: trough)[0], Gamma.drive(PaletteRole.danger.sRGB, brightness: RingRenderer.throbFloor))
        var levels: Set<RGB> = []
        for k in 0..<20 { levels.insert(frame(status, at: peak + .milliseconds(40 * k))[0]) }
        XCTAssertGreaterThan(levels.count, 5)
        // Full brightness even at night, and long after the last change.
        XCTAssertEqual(renderer.brightness(status, at: peak, calmSince: peak - .seconds(7200)), 1, accuracy: 1e-9)
    }

    func testSettlesToTheNightGlowAfterCalm() {
        let status = Fixture.status(.holding, .armed)
        let settle = t0 + .seconds(900)
        XCTAssertEqual(renderer.nextFrameChange(status, after: t0, calmSince: t0), settle)
        XCTAssertEqual(frame(status, at: settle - .seconds(1))[0], colour(.holding))
        let night = frame(status, at: settle)
        XCTAssertEqual(night[0], Gamma.drive(PaletteRole.holding.sRGB, brightness: 0.08))
        XCTAssertEqual(night[0], RGB(0, 4, 2))
        XCTAssertNil(renderer.nextFrameChange(status, after: settle, calmSince: t0))
    }

    func testNightBrightnessAndCalmAreConfigurable() {
        var s = Fixture.settings()
        s.nightBrightness = 0.1
        s.calmAfter = .seconds(60)
        let r = RingRenderer(settings: s)
        let status = Fixture.status(.holding, .armed)
        XCTAssertEqual(r.brightness(status, at: t0 + .seconds(59), calmSince: t0), s.workingBrightness)
        XCTAssertEqual(r.brightness(status, at: t0 + .seconds(60), calmSince: t0), 0.1)
    }

    func testSomethingHappeningKeepsTheRingAtWorkingBrightness() {
        let late = t0 + .seconds(7200)
        for status in [
            Fixture.status(.checking(progress: 0.2), .armed),
            Fixture.status(.dragging, .off),
            Fixture.status(.holding, .armed, faults: [Fixture.gpsFault]),
            Fixture.status(.holding, .snoozed(until: late + .seconds(100), episode: 1)),
        ] {
            XCTAssertEqual(renderer.brightness(status, at: late, calmSince: t0), working, "\(status.verdict) \(status.alarm)")
        }
        XCTAssertEqual(renderer.brightness(Fixture.status(.cantJudge(.stale), .off), at: late, calmSince: t0), renderer.settings.nightBrightness)
    }

    func testCalmRestartsOnAnyChangeButNotOnProgress() {
        var calm = RingCalm(since: t0)
        calm.observe(Fixture.status(.checking(progress: 0.1), .armed), at: t0 + .seconds(10))
        XCTAssertEqual(calm.calmSince, t0)
        calm.observe(Fixture.status(.checking(progress: 0.6), .armed), at: t0 + .seconds(20))
        XCTAssertEqual(calm.calmSince, t0)
        calm.observe(Fixture.status(.holding, .armed), at: t0 + .seconds(30))
        XCTAssertEqual(calm.calmSince, t0 + .seconds(30))
        calm.observe(Fixture.status(.holding, .armed, faults: [Fixture.gpsFault]), at: t0 + .seconds(40))
        XCTAssertEqual(calm.calmSince, t0 + .seconds(40))
        calm.activity(at: t0 + .seconds(50))  // a decision just taken, even one that changed nothing
        XCTAssertEqual(calm.calmSince, t0 + .seconds(50))
    }

    // MARK: - Only the alarm animates

    func testOnlyTheAlarmAnimates() {
        let statuses: [WatchStatus] = [
            Fixture.status(.noAnchor, .off),
            Fixture.status(.holding, .off), Fixture.status(.holding, .armed),
            Fixture.status(.checking(progress: 0.4), .armed), Fixture.status(.checking(progress: 0.4), .off),
            Fixture.status(.dragging, .off), Fixture.status(.dragging, .armed),
            Fixture.status(.cantJudge(.noFix), .armed), Fixture.status(.cantJudge(.noFix), .off),
            Fixture.status(.holding, .armed, faults: [Fixture.gpsFault]),
        ]
        for status in statuses {
            let first = frame(status)
            for ms in stride(from: 0, through: 60_000, by: 37) {
                XCTAssertEqual(frame(status, at: t0 + .milliseconds(ms)), first, "\(status.verdict) \(status.alarm) moved")
            }
            // The loop is woken at most once more, to settle to the night glow.
            let next = renderer.nextFrameChange(status, after: t0, calmSince: t0)
            XCTAssertTrue(next == nil || next == t0 + .seconds(900), "\(status.verdict) \(status.alarm) wakes at \(String(describing: next))")
        }
        let ringing = Fixture.status(.dragging, .ringing(episode: 3))
        XCTAssertEqual(renderer.nextFrameChange(ringing, after: t0, calmSince: t0), t0 + .milliseconds(40))
        XCTAssertNotEqual(frame(ringing, at: t0), frame(ringing, at: t0 + .milliseconds(200)))
    }

    func testPresenterSendsOnlyChangedFrames() {
        var presenter = RingPresenter(settings: Fixture.settings(), start: t0)
        let holding = Fixture.status(.holding, .armed)
        XCTAssertNotNil(presenter.update(holding, at: t0))
        XCTAssertNil(presenter.update(holding, at: t0 + .seconds(1)))
        XCTAssertEqual(presenter.nextFrameChange(after: t0 + .seconds(1)), t0 + .seconds(900))
        XCTAssertNotNil(presenter.update(holding, at: t0 + .seconds(900)))  // the night glow
        XCTAssertNil(presenter.update(holding, at: t0 + .seconds(901)))
        presenter.invalidate()
        XCTAssertNotNil(presenter.update(holding, at: t0 + .seconds(902)))
        // A decision brightens the ring again.
        presenter.activity(at: t0 + .seconds(1000))
        XCTAssertEqual(presenter.update(holding, at: t0 + .seconds(1000))?[0], RGB(1, 13, 7))
    }
}
