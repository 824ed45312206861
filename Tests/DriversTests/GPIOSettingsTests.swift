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

    func testConfigurationValuesBecomeAddresses() {
        XCTAssertEqual(GPIOLineAddress(chip: "gpiochip0", line: "GPIO17"), .named("GPIO17", chip: "gpiochip0"))
        XCTAssertEqual(GPIOLineAddress(chip: "gpiochip4", line: "17"), .offset(17, chip: "gpiochip4"))
        XCTAssertEqual(GPIOLineAddress(chip: "", line: "GPIO17"), .named("GPIO17", chip: nil))
        XCTAssertEqual(GPIOLineAddress(chip: "any", line: "GPIO17"), .named("GPIO17", chip: nil))
        XCTAssertNil(GPIOLineAddress(chip: "any", line: "17"), "an offset needs its chip")
        XCTAssertNil(GPIOLineAddress(chip: "gpiochip0", line: " "))
    }

    func testDefaultsAreThePiWiring() {
        let s = GPIOSettings()
        XCTAssertEqual(s.buzzer, .named("GPIO17", chip: "gpiochip0"))
        XCTAssertEqual(s.armSwitch, .named("GPIO27", chip: "gpiochip0"))
        XCTAssertEqual(s.button, .named("GPIO22", chip: "gpiochip0"))
        XCTAssertEqual(s.armContact, .closed)
        XCTAssertEqual(s.settle, .milliseconds(50))
        XCTAssertEqual(s.press.long, .milliseconds(1500))
        XCTAssertEqual(s.press.veryLong, .seconds(5))
        XCTAssertEqual(s.press.resting, .seconds(10))
        XCTAssertEqual(GPIOSettings.consumer, "anchor-alert")
    }

    func testFromConfiguration() {
        let (s, problems) = GPIOSettings.from(chip: "gpiochip4", buzzer: "5", armSwitch: "GPIO27", button: "",
                                              debounce: 0.02, longPress: 2, veryLongPress: 8)
        XCTAssertEqual(s.buzzer, .offset(5, chip: "gpiochip4"))
        XCTAssertEqual(s.armSwitch, .named("GPIO27", chip: "gpiochip4"))
        XCTAssertEqual(s.button, GPIOSettings().button, "a bad value keeps its default")
        XCTAssertEqual(problems, ["Configuration: gpio.button must name a line (GPIO17) or an offset on gpio.chip"])
        XCTAssertEqual(s.settle, .milliseconds(20))
        XCTAssertEqual(s.press.long, .seconds(2))
        XCTAssertEqual(s.press.veryLong, .seconds(8))
        XCTAssertEqual(s.press.resting, .seconds(16))
        let backwards = GPIOSettings.from(chip: "gpiochip0", buzzer: "GPIO17", armSwitch: "GPIO27", button: "GPIO22",
                                          debounce: 0.05, longPress: 6, veryLongPress: 5).settings
        XCTAssertEqual(backwards.press, PressClassifier.Thresholds())
    }
}
