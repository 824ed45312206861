import WatchCore

/// Where the buzzer, the arm switch and the button are wired, and how the controls are timed.
/// Defaults fit a Raspberry Pi wired as Docs/controls.md shows. The configuration (the `gpio.*`
/// keys of Docs/configuration.md) fills it through `init(chip:buzzer:armSwitch:button:...)`.
public struct GPIOSettings: Hashable, Sendable {
    /// The inputs' internal pull-up, the `[gpio] pull_up` key's default and `GPIOChips`': the
    /// switch and button wiring of Docs/install.md has no resistors of its own.
    public static let defaultPullUp = true

    /// Which contact state of the arm switch means ARM.
    public enum ArmContact: String, Hashable, Sendable {
        /// ARM closes the contact to ground (the line reads low). The default, as wired in the
        /// README: "to ground, internal pull-up; ARM = closed".
        case closed
        /// ARM opens the contact (the line reads high through its pull-up). Fail-safe: a broken
        /// wire or an unplugged switch then reads ARM, so a wiring fault can arm the box (or give
        /// the refusal) but can never quietly disarm a watch. See Docs/controls.md.
        case open
    }

    /// The consumer label the kernel shows for our lines (gpioinfo): names the box.
    public static let consumer = "anchor-alert"

    /// An output through an NPN transistor, on while high. Pi header pin 11.
    public var buzzer: GPIOLineAddress = .named("GPIO17", chip: "gpiochip0")
    /// An input with pull-up, switched to ground. Pi header pin 13.
    public var armSwitch: GPIOLineAddress = .named("GPIO27", chip: "gpiochip0")
    /// An input with pull-up, pressed to ground. Pi header pin 15.
    public var button: GPIOLineAddress = .named("GPIO22", chip: "gpiochip0")
    public var armContact: ArmContact = .closed
    /// The parts that are fitted (`gpio.buzzer_enabled`, `gpio.switch_enabled`,
    /// `gpio.button_enabled`): a part that isn't fitted has no line and is no fault.
    public var fitted: Set<GPIORole> = Set(GPIORole.allCases)
    /// How long a contact must stay put to count.
    public var settle: Duration = Debouncer.defaultSettle
    public var press = PressClassifier.Thresholds()
    /// How often a line that failed (missing, busy, not allowed) is tried again.
    public var retry: Duration = .seconds(10)

    public init() {}

    /// From the configuration's values: `gpio.chip` ("" or "any": search every chip for the
    /// line names), `gpio.buzzer`, `gpio.arm_switch`, `gpio.button` (a line name, or an offset
    /// on `gpio.chip`), and the timings in seconds. Returns nil with the problem in the
    /// product's words when a value can't be used (the caller keeps the defaults for it).
    public static func from(
        chip: String, buzzer: String, armSwitch: String, button: String,
        debounce: Double, longPress: Double, veryLongPress: Double,
        buzzerFitted: Bool = true, switchFitted: Bool = true, buttonFitted: Bool = true
    ) -> (settings: GPIOSettings, problems: [String]) {
        var s = GPIOSettings()
        s.fitted = Set([buzzerFitted ? GPIORole.buzzer : nil, switchFitted ? .armSwitch : nil,
                        buttonFitted ? .button : nil].compactMap { $0 })
        var problems: [String] = []
        for (key, text, path) in [("gpio.buzzer", buzzer, \GPIOSettings.buzzer),
                                  ("gpio.arm_switch", armSwitch, \GPIOSettings.armSwitch),
                                  ("gpio.button", button, \GPIOSettings.button)] {
            if let address = GPIOLineAddress(chip: chip, line: text) {
                s[keyPath: path] = address
            } else {
                problems.append("Configuration: \(key) must name a line (GPIO17) or an offset on gpio.chip")
            }
        }
        func seconds(_ v: Double) -> Duration? { v.isFinite && v > 0 ? .seconds(v) : nil }
        if let d = seconds(debounce) { s.settle = d }
        if let l = seconds(longPress), let v = seconds(veryLongPress), l < v {
            s.press.long = l
            s.press.veryLong = v
            // Something resting on the button: twice the very long press, at least 10 s.
            s.press.resting = max(.seconds(10), v + v)
        }
        return (s, problems)
    }
}
