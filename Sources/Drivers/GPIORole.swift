import WatchCore

/// The three lines of the box, each its own Systems Check row.
public enum GPIORole: String, Hashable, Sendable, CaseIterable {
    case buzzer
    case armSwitch = "arm_switch"
    case button

    public var faultKind: FaultKind {
        switch self {
        case .buzzer: .buzzer
        case .armSwitch: .armSwitch
        case .button: .button
        }
    }

    var label: String {
        switch self {
        case .buzzer: "Buzzer"
        case .armSwitch: "Arm switch"
        case .button: "Button"
        }
    }

    var configKey: String { "gpio.\(rawValue)" }

    /// What the box still does without this line: it keeps watching with what it has.
    public var consequence: String {
        switch self {
        case .buzzer: "alarms sound on the siren and the ring only"
        case .armSwitch: "sliding it does nothing, the alarm stays as it is"
        case .button: "presses do nothing, snooze from the command line or slide the switch off"
        }
    }

    /// The Systems Check fault for a line that could not be used: "Label: cause, consequence.
    /// Remedy." Every one pushes: a box that lost a control must say so, not wait to be read.
    public func fault(_ error: GPIOError) -> Fault {
        let remedy: String
        switch error {
        case .chipMissing, .lineNotFound: remedy = "Check \(configKey) in the configuration and the wiring."
        case .lineBusy: remedy = "Stop the other program that uses it."
        case .permissionDenied: remedy = "Run anchor-alert as root or in the gpio group."
        // The line is tried again every `GPIOSettings.retry`: no restart is needed.
        case .other: remedy = "Check the wiring; the box tries the line again by itself."
        }
        return Fault(faultKind, "\(label): \(error.cause), \(consequence). \(remedy)")
    }
}
