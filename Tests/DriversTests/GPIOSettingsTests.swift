import Drivers
import WatchCore
import XCTest

final class GPIOSettingsTests: XCTestCase {
    func testLineAddressesParse() {
        XCTAssertEqual(GPIOLineAddress(parsing: "GPIO17"), .named("GPIO17", chip: nil))
        XCTAssertEqual(GPIOLineAddress(parsing: "gpiochip0:GPIO17"), .named("GPIO17", chip: "gpiochip0"))
        XCTAssertEqual(GPIOLineAddress(parsing: " gpiochip4:17 "), .offset(17, chip: "gpiochip4"))
        XCTAssertEqual(GPIOLineAddress(parsing: "/dev/gpiochip1:arm-switch"), .named("arm-switch", chip: "/dev/gpiochip1"))
        XCTAssertNil(GPIOLineAddress(parsing: ""))
        XCTAssertNil(GPIOLineAddress(parsing: "gpiochip0:"))
        XCTAssertNil(GPIOLineAddress(parsing: ":17"))
        XCTAssertEqual(GPIOLineAddress(parsing: "gpiochip0:１７"), .named("１７", chip: "gpiochip0"), "only ASCII digits are an offset")
    }

    func testDefaultsAreThePiWiring() {
        let s = GPIOSettings()
        XCTAssertEqual(s.buzzer.description, "GPIO17")
        XCTAssertEqual(s.armSwitch.description, "GPIO27")
        XCTAssertEqual(s.button.description, "GPIO22")
        XCTAssertEqual(s.armContact, .open)
        XCTAssertEqual(GPIOSettings.consumer, "anchor-alert")
    }

    func testKeysApplyAndBadValuesKeepTheDefault() {
        var s = GPIOSettings()
        XCTAssertNil(s.set("gpio.buzzer", to: "gpiochip0:5"))
        XCTAssertEqual(s.buzzer, .offset(5, chip: "gpiochip0"))
        XCTAssertNil(s.set("gpio.arm_switch_arms_when", to: "Closed"))
        XCTAssertEqual(s.armContact, .closed)
        XCTAssertNotNil(s.set("gpio.arm_switch_arms_when", to: "maybe"))
        XCTAssertEqual(s.armContact, .closed)
        XCTAssertNil(s.set("gpio.long_press_ms", to: "2000"))
        XCTAssertEqual(s.press.long, .seconds(2))
        XCTAssertEqual(s.set("gpio.very_long_press_ms", to: "1500"),
                       "Configuration: button press times must grow: long, then very long, then resting")
        XCTAssertEqual(s.press, PressClassifier.Thresholds())
        XCTAssertNotNil(s.set("gpio.debounce_ms", to: "0"))
        XCTAssertNotNil(s.set("gpio.nonsense", to: "1"))
        for key in GPIOSettings.keys { XCTAssertNotEqual(s.set(key, to: "x"), "Configuration: unknown key \(key)") }
    }
}
