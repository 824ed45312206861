@testable import Drivers
import Posix
import WatchCore
import XCTest

/// The controls driver over a fake chip: the loop's turns are played by hand with a manual clock.
final class GPIOControlsTests: XCTestCase {
    var chip: FakeChip!
    var sw: FakeChip.Line!
    var button: FakeChip.Line!
    var settings = GPIOSettings()

    override func setUp() {
        chip = FakeChip()
        sw = chip.add("GPIO27", high: true)
        button = chip.add("GPIO22", high: true)
        settings.retry = .seconds(10)
    }

    /// Runs the loop: services the driver whenever a descriptor has edges or a deadline is due,
    /// up to `until`, and returns every event.
    func run(_ controls: GPIOControls, until end: Instant, from start: Instant) -> [Event] {
        var out: [Event] = []
        var now = start
        while now <= end {
            let ready = controls.pollRequests().filter { r in chip.lines.values.contains { $0.fd == r.fd && !$0.pending.isEmpty } }
            out += controls.service(ready: ready, now: now)
            guard let next = controls.nextDeadline(), next <= end else { break }
            now = max(now, next)
        }
        return out
    }

    func testTheSwitchPositionAtStartIsReported() {
        let controls = GPIOControls(settings: settings, chips: chip)
        XCTAssertEqual(controls.start(now: .ms(0)), [.armSwitch(on: false)], "open contact: off by default")
        XCTAssertEqual(chip.requests, ["GPIO27", "GPIO22"])

        sw.high = false
        XCTAssertEqual(GPIOControls(settings: settings, chips: chip).start(now: .ms(0)), [.armSwitch(on: true)],
                       "closed contact: ARM")
        settings.armContact = .open
        XCTAssertEqual(GPIOControls(settings: settings, chips: chip).start(now: .ms(0)), [.armSwitch(on: false)],
                       "the fail-safe wiring: closed is off")
    }

    func testABouncingSlideArmsOnceAndNeverFlickers() {
        settings.armContact = .closed
        let controls = GPIOControls(settings: settings, chips: chip)
        XCTAssertEqual(controls.start(now: .ms(0)), [.armSwitch(on: false)], "open contact: off")
        // Slide to ARM (closed): six bounces over 5 ms, the contact ending closed.
        for (i, high) in [false, true, false, true, false, true, false].enumerated() {
            sw.move(high: high, at: .ms(1000 + Int64(i)))
        }
        XCTAssertEqual(sw.pending.count, 7)
        let events = run(controls, until: .ms(2000), from: .ms(1007))
        XCTAssertEqual(events, [.armSwitch(on: true)])
        XCTAssertNil(controls.nextDeadline(), "nothing left to wait for")
        // Slide back to off with bounces: one disarm.
        for (i, high) in [true, false, true, false, true].enumerated() { sw.move(high: high, at: .ms(3000 + Int64(i))) }
        XCTAssertEqual(run(controls, until: .ms(4000), from: .ms(3005)), [.armSwitch(on: false)])
    }

    func testAGlitchOnTheSwitchLineIsNoEvent() {
        let controls = GPIOControls(settings: settings, chips: chip)
        _ = controls.start(now: .ms(0))
        sw.move(high: false, at: .ms(500))
        sw.move(high: true, at: .ms(503))
        XCTAssertEqual(run(controls, until: .ms(2000), from: .ms(504)), [])
    }

    func testPressesAreClassifiedByHowLongTheButtonWasHeld() {
        let controls = GPIOControls(settings: settings, chips: chip)
        _ = controls.start(now: .ms(0))
        func press(at t: Int64, for ms: Int64) -> [Event] {
            // A press bounces on the way down and on the way up.
            button.move(high: false, at: .ms(t)); button.move(high: true, at: .ms(t + 1)); button.move(high: false, at: .ms(t + 2))
            var out = run(controls, until: .ms(t + ms), from: .ms(t + 3))
            button.move(high: true, at: .ms(t + ms)); button.move(high: false, at: .ms(t + ms + 1)); button.move(high: true, at: .ms(t + ms + 2))
            out += run(controls, until: .ms(t + ms + 1000), from: .ms(t + ms + 3))
            return out
        }
        XCTAssertEqual(press(at: 1000, for: 200), [.button(.short)])
        XCTAssertEqual(press(at: 5000, for: 1600), [.button(.long)])
        XCTAssertEqual(press(at: 10_000, for: 6000), [.button(.veryLong)])
        XCTAssertEqual(press(at: 20_000, for: 30_000), [.button(.short)], "resting on it marks nothing")
    }

    func testAButtonHeldAtStartIsNotAPress() {
        button.high = false
        let controls = GPIOControls(settings: settings, chips: chip)
        _ = controls.start(now: .ms(0))
        button.move(high: true, at: .ms(2000))
        XCTAssertEqual(run(controls, until: .ms(3000), from: .ms(2001)), [])
    }

    func testAPartThatIsNotFittedIsNoLineAndNoFault() {
        chip.lines["GPIO22"] = nil
        settings.fitted = [.armSwitch]
        let controls = GPIOControls(settings: settings, chips: chip)
        XCTAssertEqual(controls.start(now: .ms(0)), [.armSwitch(on: false)])
        XCTAssertEqual(chip.requests, ["GPIO27"])
        XCTAssertNil(controls.nextDeadline())
        settings.fitted = []
        XCTAssertEqual(GPIOBuzzer(settings: settings, chips: chip).start(now: .ms(0)), [])
        XCTAssertEqual(chip.requests, ["GPIO27"])
    }

    func testAMissingLineIsAFaultAndTheOtherLineStillWorks() {
        chip.lines["GPIO22"] = nil
        let controls = GPIOControls(settings: settings, chips: chip)
        let events = controls.start(now: .ms(0))
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events.first, .armSwitch(on: false))
        guard case .faultRaised(let fault) = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(fault.kind, .button)
        XCTAssertEqual(fault.message,
            "Button: no GPIO line GPIO22, presses do nothing, snooze from the command line or slide the switch off. Check gpio.button in the configuration and the wiring.")
        XCTAssertFalse(fault.message.contains("\u{2014}"), "no em dash")
        XCTAssertEqual(controls.pollRequests().count, 1)
        XCTAssertEqual(controls.nextDeadline(), .ms(10_000), "tried again later")

        sw.move(high: false, at: .ms(100))
        XCTAssertEqual(run(controls, until: .ms(5000), from: .ms(101)), [.armSwitch(on: true)])
    }

    func testABusyLineIsRetriedAndClearsWhenFreed() {
        chip.refusing["GPIO27"] = .lineBusy(line: "GPIO27")
        let controls = GPIOControls(settings: settings, chips: chip)
        let events = controls.start(now: .ms(0))
        guard case .faultRaised(let fault) = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(fault.kind, .armSwitch)
        XCTAssertTrue(fault.message.hasPrefix("Arm switch: line GPIO27 is held by another program"), fault.message)
        XCTAssertTrue(fault.pushes)
        // Still busy at the first retry: no second announcement.
        XCTAssertEqual(controls.service(ready: [], now: .ms(10_000)), [])
        chip.refusing["GPIO27"] = nil
        XCTAssertEqual(controls.service(ready: [], now: .ms(20_000)), [.faultCleared(.armSwitch), .armSwitch(on: false)])
    }

    func testALineThatFailsWhileHeldIsLetGoAndReported() {
        let controls = GPIOControls(settings: settings, chips: chip)
        _ = controls.start(now: .ms(0))
        sw.failReads = .other(line: "GPIO27", errno: .io)
        sw.pending = [LineEdge(high: false, at: .ms(10))]
        let events = controls.service(ready: [PollDescriptor(fd: sw.fd, wanted: 1, happened: 1)], now: .ms(11))
        guard case .faultRaised(let fault) = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(fault.kind, .armSwitch)
        XCTAssertFalse(controls.isWorking(.armSwitch))
        XCTAssertTrue(controls.isWorking(.button))
        // The box tries the line again by itself: its fix says so, not "restart the box".
        XCTAssertTrue(fault.message.hasSuffix(". Check the wiring; the box tries the line again by itself."), fault.message)
        sw.failReads = nil
        XCTAssertEqual(controls.service(ready: [], now: .ms(11 + 10_000)).first, .faultCleared(.armSwitch), "and it does")
    }

    func testPermissionAndMissingChipSayWhatToDo() {
        XCTAssertEqual(GPIORole.buzzer.fault(.permissionDenied(chip: "/dev/gpiochip0")).message,
            "Buzzer: no permission to use /dev/gpiochip0, alarms sound on the siren and the ring only. Run anchor-alert as root or in the gpio group.")
        XCTAssertEqual(GPIORole.buzzer.fault(.chipMissing(chip: "gpiochip9")).message,
            "Buzzer: no GPIO chip gpiochip9, alarms sound on the siren and the ring only. Check gpio.buzzer in the configuration and the wiring.")
    }
}
