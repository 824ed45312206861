import WatchCore

/// Where the buzzer, the arm switch and the button are wired, and how the controls are timed.
/// Defaults fit a Raspberry Pi wired as Docs/controls.md shows; every one is a configuration key.
public struct GPIOSettings: Hashable, Sendable {
    /// Which contact state of the arm switch means ARM.
    public enum ArmContact: String, Hashable, Sendable {
        /// ARM opens the contact (the line reads high through its pull-up). The default: a
        /// broken wire or an unplugged switch then reads ARM, so a wiring fault can arm the box
        /// (or give the refusal) but can never quietly disarm a watch.
        case open
        /// ARM closes the contact to ground (the line reads low).
        case closed
    }

    /// The consumer label the kernel shows for our lines (gpioinfo): names the box.
    public static let consumer = "anchor-alert"

    /// `gpio.buzzer`: an output through a transistor, on while high. Pi header pin 11.
    public var buzzer: GPIOLineAddress = .named("GPIO17", chip: nil)
    /// `gpio.arm_switch`: an input with pull-up, switched to ground. Pi header pin 13.
    public var armSwitch: GPIOLineAddress = .named("GPIO27", chip: nil)
    /// `gpio.button`: an input with pull-up, pressed to ground. Pi header pin 15.
    public var button: GPIOLineAddress = .named("GPIO22", chip: nil)
    /// `gpio.arm_switch_arms_when`: `open` or `closed`.
    public var armContact: ArmContact = .open
    /// `gpio.debounce_ms`.
    public var settle: Duration = Debouncer.defaultSettle
    /// `gpio.long_press_ms`, `gpio.very_long_press_ms`, `gpio.resting_press_ms`.
    public var press = PressClassifier.Thresholds()
    /// How often a line that failed (missing, busy, not allowed) is tried again.
    public var retry: Duration = .seconds(10)

    public init() {}

    /// The configuration keys this type reads, for the configuration's "unknown key" check.
    public static let keys = [
        "gpio.buzzer", "gpio.arm_switch", "gpio.button", "gpio.arm_switch_arms_when",
        "gpio.debounce_ms", "gpio.long_press_ms", "gpio.very_long_press_ms", "gpio.resting_press_ms",
    ]

    /// Applies one configuration key. Returns nil when taken, or a line for the config fault
    /// ("Label: consequence") when the value is not valid; the default then stays.
    public mutating func set(_ key: String, to value: String) -> String? {
        func millis(_ range: ClosedRange<Int>) -> Duration? {
            guard let n = Int(value.filter { !$0.isWhitespace }), range.contains(n) else { return nil }
            return .milliseconds(n)
        }
        switch key {
        case "gpio.buzzer", "gpio.arm_switch", "gpio.button":
            guard let address = GPIOLineAddress(parsing: value) else {
                return "Configuration: \(key) must be a line name (GPIO17), chip:name or chip:offset"
            }
            if key == "gpio.buzzer" { buzzer = address } else if key == "gpio.arm_switch" { armSwitch = address } else { button = address }
        case "gpio.arm_switch_arms_when":
            guard let contact = ArmContact(rawValue: value.lowercased()) else {
                return "Configuration: gpio.arm_switch_arms_when must be open or closed"
            }
            armContact = contact
        case "gpio.debounce_ms":
            guard let d = millis(1...1000) else { return "Configuration: gpio.debounce_ms must be 1 to 1000" }
            settle = d
        case "gpio.long_press_ms":
            guard let d = millis(200...10_000) else { return "Configuration: gpio.long_press_ms must be 200 to 10000" }
            press.long = d
        case "gpio.very_long_press_ms":
            guard let d = millis(1000...30_000) else { return "Configuration: gpio.very_long_press_ms must be 1000 to 30000" }
            press.veryLong = d
        case "gpio.resting_press_ms":
            guard let d = millis(2000...120_000) else { return "Configuration: gpio.resting_press_ms must be 2000 to 120000" }
            press.resting = d
        default:
            return "Configuration: unknown key \(key)"
        }
        guard press.long < press.veryLong, press.veryLong < press.resting else {
            press = PressClassifier.Thresholds()
            return "Configuration: button press times must grow: long, then very long, then resting"
        }
        return nil
    }
}
