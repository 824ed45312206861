#if canImport(Glibc)
import Glibc
#endif
@testable import Drivers
import LightsAndSounds
import WatchCore
import XCTest

/// The real drivers on a real kernel GPIO chip (gpio-sim) inside the test VM. Outside the VM
/// every test skips with the reason printed; `scripts/test-gpio.sh` runs them inside and fails
/// if they did not all run.
final class GPIOSimTests: XCTestCase {
    /// One chip for the class: making one costs seconds under emulation. Each test requests its
    /// lines afresh, and a request sets what matters (an input's pull-up, an output's level).
    nonisolated(unsafe) static var shared: GPIOSim?
    var sim: GPIOSim!
    var settings = GPIOSettings()

    override class func tearDown() {
        shared?.remove()
        shared = nil
    }

    override func setUpWithError() throws {
        try GPIOSim.requireVM()
        if Self.shared == nil { Self.shared = try GPIOSim(name: "anchoralert", lines: ["buzzer", "arm-switch", "button"]) }
        sim = Self.shared
        settings.buzzer = .named("buzzer", chip: sim.chip)
        settings.armSwitch = .named("arm-switch", chip: sim.chip)
        settings.button = .named("button", chip: sim.chip)
        settings.retry = .milliseconds(300)
        print("gpio-sim: \(sim.chip) at \(sim.sysfs), libgpiod API v\(GPIOLineRequest.apiVersion)")
    }

    func testTheBuzzerLineFollowsTheAlarmPattern() throws {
        let buzzer = GPIOBuzzer(settings: settings, chips: GPIOChips())
        XCTAssertEqual(buzzer.start(now: monotonicNow()), [])
        XCTAssertTrue(buzzer.isWorking)
        XCTAssertEqual(sim.value("buzzer"), 0, "off from the start")

        let player = BuzzerPlayer(line: buzzer)
        let alarm = SoundPattern([.init(3000, .milliseconds(200)), .init(nil, .milliseconds(200))], repeats: true)
        let start = monotonicNow()
        player.play(alarm, now: start)
        // Sample the line through sysfs in the middle of each step while the driver holds it,
        // and measure how late each change was made (the VM runs under software emulation).
        // A sample read after its step had already ended (the emulated machine stalled past the
        // step's boundary before the driver's next turn) can't say which step it saw: it is left
        // out and counted, and most steps must be judged.
        var samples: [(step: Int, seen: Int)] = []
        var lateness: [Double] = []
        var boundary = player.nextDeadline()!
        for step in 0..<12 {
            let middle = start + .milliseconds(Int64(step) * 200 + 100)
            pause(middle - monotonicNow())
            let seen = sim.value("buzzer")
            if monotonicNow() < boundary { samples.append((step, seen)) }
            pause(boundary - monotonicNow())
            let now = monotonicNow()
            _ = player.service(ready: [], now: now)
            lateness.append((now - boundary).seconds * 1000)
            boundary = player.nextDeadline()!
        }
        let late = lateness.sorted()
        print(String(format: "buzzer changes late by: median %.2f ms, max %.2f ms over %d changes; %d of 12 steps sampled inside their step",
                     late[late.count / 2], late.last!, late.count, samples.count))
        XCTAssertGreaterThanOrEqual(samples.count, 8, "steps sampled inside their own 200 ms")
        XCTAssertTrue(samples.contains { $0.step % 2 == 0 } && samples.contains { $0.step % 2 == 1 }, "both halves of the pattern sampled")
        for sample in samples {
            XCTAssertEqual(sample.seen, sample.step % 2 == 0 ? 1 : 0, "step \(sample.step): the line as the chip sees it (on 200 ms, off 200 ms)")
        }

        player.stop(now: monotonicNow())
        XCTAssertEqual(sim.value("buzzer"), 0, "stop silences at once")
        player.play(alarm, now: monotonicNow())
        XCTAssertEqual(sim.value("buzzer"), 1)
        buzzer.shutdown()
        XCTAssertEqual(sim.value("buzzer"), 0, "shutdown (the SIGTERM path) leaves it off")
    }

    func testTheBuzzerIsOffWhenItsHolderGoesAwayAnyHow() throws {
        var buzzer: GPIOBuzzer? = GPIOBuzzer(settings: settings, chips: GPIOChips())
        _ = buzzer!.start(now: monotonicNow())
        buzzer!.set(on: true)
        XCTAssertEqual(sim.value("buzzer"), 1)
        buzzer = nil
        XCTAssertEqual(sim.value("buzzer"), 0, "deinit leaves it off")

        // A crash: the kernel closes the holder's descriptors. gpio-sim then returns the line to
        // its pull (pull-down unless set), so the buzzer falls silent; measured here with a
        // holder that is killed outright while driving the line high.
        let pid = shell("gpioset --mode=signal \(sim.chip) \(sim.offset("buzzer"))=1 >/dev/null 2>&1 & echo $!").output
        XCTAssertTrue(waitFor { self.sim.value("buzzer") == 1 }, "gpioset drove the line high")
        shell("kill -9 \(pid); while kill -0 \(pid) 2>/dev/null; do sleep 0.05; done")
        let after = sim.value("buzzer")
        print("gpio-sim: value after the holder was killed while high: \(after)")
        XCTAssertEqual(after, 0)
    }

    func testSwitchEdgesBecomeDebouncedEvents() throws {
        let controls = GPIOControls(settings: settings, chips: GPIOChips())
        XCTAssertEqual(controls.start(now: monotonicNow()), [.armSwitch(on: false)],
                       "our pull-up, contact open: off (ARM closes the contact by default)")
        XCTAssertTrue(shell("gpioinfo \(sim.chip) | grep arm-switch").output.contains("\"anchor-alert\""),
                      "held under the box's consumer label")

        let slid = monotonicNow()
        sim.pull("arm-switch", high: false)
        let armed = runLoop([controls], until: monotonicNow() + .milliseconds(400))
        XCTAssertEqual(armed.map(\.event), [.armSwitch(on: true)])
        if let first = armed.first {
            print(String(format: "switch: event %.1f ms after the slide (debounce %.0f ms)",
                         (first.at - slid).seconds * 1000, settings.settle.seconds * 1000))
            XCTAssertGreaterThanOrEqual(first.at - slid, settings.settle, "not before the contact settled")
        }
        sim.pull("arm-switch", high: true)
        XCTAssertEqual(runLoop([controls], until: monotonicNow() + .milliseconds(400)).map(\.event), [.armSwitch(on: false)])
    }

    func testABouncingSwitchArmsOnce() throws {
        // A long debounce, so that the emulated machine's slow sysfs writes (about 4 ms each)
        // still fall inside one burst; the logic is the same at 50 ms.
        settings.settle = .milliseconds(250)
        let controls = GPIOControls(settings: settings, chips: GPIOChips())
        XCTAssertEqual(controls.start(now: monotonicNow()), [.armSwitch(on: false)])

        // Slide to ARM with the contact chattering: nine changes, ending closed.
        let t0 = monotonicNow()
        for high in [false, true, false, true, false, true, false, true, false] { sim.pull("arm-switch", high: high) }
        let burst = monotonicNow() - t0
        print(String(format: "bounce: 9 changes in %.2f ms", burst.seconds * 1000))
        XCTAssertLessThan(burst, settings.settle, "the burst must be faster than the debounce to test it")
        let events = runLoop([controls], until: monotonicNow() + .milliseconds(800)).map(\.event)
        XCTAssertEqual(events, [.armSwitch(on: true)], "one arm, no flicker")

        // A glitch that comes back is nothing.
        sim.pull("arm-switch", high: true)
        sim.pull("arm-switch", high: false)
        XCTAssertEqual(runLoop([controls], until: monotonicNow() + .milliseconds(800)).map(\.event), [])
    }

    func testButtonPressesAreTimedByTheKernelsStamps() throws {
        let controls = GPIOControls(settings: settings, chips: GPIOChips())
        _ = controls.start(now: monotonicNow())
        func press(for held: Duration) -> [Event] {
            sim.pull("button", high: false)
            var events = runLoop([controls], until: monotonicNow() + held).map(\.event)
            sim.pull("button", high: true)
            events += runLoop([controls], until: monotonicNow() + .milliseconds(300)).map(\.event)
            return events
        }
        XCTAssertEqual(press(for: .milliseconds(300)), [.button(.short)])
        XCTAssertEqual(press(for: .milliseconds(1800)), [.button(.long)])
    }

    func testABusyLineIsAFaultAndClearsWhenFreed() throws {
        let holder = shell("gpioset --mode=signal \(sim.chip) \(sim.offset("buzzer"))=0 >/dev/null 2>&1 & echo $!").output
        let watcher = shell("gpiomon \(sim.chip) \(sim.offset("arm-switch")) >/dev/null 2>&1 & echo $!").output
        defer { shell("kill \(holder) \(watcher) 2>/dev/null") }
        XCTAssertTrue(waitFor { shell("gpioinfo \(self.sim.chip)").output.components(separatedBy: "[used]").count == 3 },
                      "gpioset and gpiomon hold their lines")

        let buzzer = GPIOBuzzer(settings: settings, chips: GPIOChips())
        let raised = buzzer.start(now: monotonicNow())
        guard case .faultRaised(let fault) = raised.first else { return XCTFail("\(raised)") }
        XCTAssertEqual(fault.kind, .buzzer)
        XCTAssertTrue(fault.message.hasPrefix("Buzzer: line buzzer is held by another program"), fault.message)
        print("fault: \(fault.message)")

        let controls = GPIOControls(settings: settings, chips: GPIOChips())
        let events = controls.start(now: monotonicNow())
        XCTAssertEqual(events.count, 1, "\(events)")
        guard case .faultRaised(let switchFault) = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(switchFault.kind, .armSwitch)
        XCTAssertTrue(controls.isWorking(.button), "the button works on")

        shell("kill \(holder) \(watcher); while kill -0 \(holder) 2>/dev/null || kill -0 \(watcher) 2>/dev/null; do sleep 0.05; done")
        let back = runLoop([buzzer, controls], until: monotonicNow() + .milliseconds(800)).map(\.event)
        XCTAssertTrue(back.contains(.faultCleared(.buzzer)), "\(back)")
        XCTAssertTrue(back.contains(.faultCleared(.armSwitch)), "\(back)")
        XCTAssertTrue(back.contains(.armSwitch(on: false)), "read afresh, pulled up by our request: \(back)")
        XCTAssertTrue(buzzer.isWorking)
    }

    func testAMissingChipOrLineIsAFault() throws {
        var s = settings
        s.buzzer = .named("buzzer", chip: "gpiochip99")
        s.armSwitch = .named("no-such-line", chip: nil)
        s.button = .offset(17, chip: sim.chip)
        let buzzerEvents = GPIOBuzzer(settings: s, chips: GPIOChips()).start(now: monotonicNow())
        XCTAssertEqual(buzzerEvents, [.faultRaised(GPIORole.buzzer.fault(.chipMissing(chip: "gpiochip99")))])
        let events = GPIOControls(settings: s, chips: GPIOChips()).start(now: monotonicNow())
        XCTAssertEqual(events, [
            .faultRaised(GPIORole.armSwitch.fault(.lineNotFound(line: "no-such-line"))),
            .faultRaised(GPIORole.button.fault(.lineNotFound(line: "\(sim.chip) line 17"))),
        ])
        for e in buzzerEvents + events { if case .faultRaised(let f) = e { print("fault: \(f.message)") } }
    }

    func testALineNamedWithoutItsChipIsFoundOnAnyChip() throws {
        var s = settings
        s.buzzer = .named("buzzer", chip: nil)
        let buzzer = GPIOBuzzer(settings: s, chips: GPIOChips())
        XCTAssertEqual(buzzer.start(now: monotonicNow()), [])
        buzzer.set(on: true)
        XCTAssertEqual(sim.value("buzzer"), 1)
        buzzer.shutdown()
    }

    /// Polls a condition for up to five seconds (a helper process starting under emulation).
    func waitFor(_ condition: () -> Bool) -> Bool {
        let end = monotonicNow() + .seconds(5)
        while monotonicNow() < end {
            if condition() { return true }
            pause(.milliseconds(50))
        }
        return false
    }
}
