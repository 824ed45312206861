/// A Systems Check component that can fail. Drivers raise and clear faults; the watch decides
/// when a fault pushes (the fault pattern on buzzer and ring).
public enum FaultKind: String, Hashable, Sendable, CaseIterable, Comparable {
    /// Armed, and no usable GPS reading for longer than the grace period.
    case gpsLost = "gps_lost"
    case gpsd
    case receiver
    case buzzer
    case armSwitch = "arm_switch"
    case button
    case ledRing = "led_ring"
    case siren
    case journal
    case config
    case power
    case clock
    case watchdog

    public static func < (a: FaultKind, b: FaultKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

public struct Fault: Error, Hashable, Sendable {
    public var kind: FaultKind
    /// One line in the product's words, "Label: consequence", e.g. "GPS: gpsd is not running".
    public var message: String
    /// A fault that pushes sounds the fault pattern until acknowledged or cleared.
    public var pushes: Bool

    public init(_ kind: FaultKind, _ message: String, pushes: Bool = true) {
        self.kind = kind
        self.message = message
        self.pushes = pushes
    }
}
