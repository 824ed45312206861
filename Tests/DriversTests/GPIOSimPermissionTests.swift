#if canImport(Glibc)
import Glibc
#endif
@testable import Drivers
import WatchCore
import XCTest

/// Permission denied, for real: `scripts/test-gpio.sh` makes a gpio-sim chip as root inside the
/// VM, then runs this class as an unprivileged user with the chip's name in
/// GPIO_SIM_PERMISSION_CHIP (the chip's device is root's, mode 0600).
final class GPIOSimPermissionTests: XCTestCase {
    func testAChipWeMayNotOpenIsAPermissionFault() throws {
        try GPIOSim.requireVM()
        guard let env = getenv("GPIO_SIM_PERMISSION_CHIP") else {
            let reason = "GPIO_SIM_PERMISSION_CHIP unset: scripts/test-gpio.sh runs this as an unprivileged user"
            print("GPIO permission test skipped: \(reason)")
            throw XCTSkip(reason)
        }
        let chip = String(cString: env)
        XCTAssertNotEqual(getuid(), 0, "must run unprivileged to mean anything")
        var settings = GPIOSettings()
        settings.buzzer = .named("buzzer", chip: chip)
        settings.armSwitch = .named("arm-switch", chip: nil)
        settings.button = .offset(2, chip: chip)
        let buzzer = GPIOBuzzer(settings: settings, chips: GPIOChips()).start(now: monotonicNow())
        XCTAssertEqual(buzzer, [.faultRaised(GPIORole.buzzer.fault(.permissionDenied(chip: chip)))])
        let controls = GPIOControls(settings: settings, chips: GPIOChips()).start(now: monotonicNow())
        XCTAssertEqual(controls, [
            .faultRaised(GPIORole.armSwitch.fault(.permissionDenied(chip: "/dev/\(chip)"))),
            .faultRaised(GPIORole.button.fault(.permissionDenied(chip: chip))),
        ], "a name searched on every chip says 'not allowed', not 'not found'")
        for e in buzzer + controls { if case .faultRaised(let f) = e { print("fault: \(f.message)") } }
    }
}
