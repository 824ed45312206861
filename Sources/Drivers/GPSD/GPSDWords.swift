import WatchCore

/// Every sentence the gpsd driver says, in the product's words: "Label: consequence".
public enum GPSDWords {
    public static func notRunning(host: String, port: UInt16) -> String {
        isLocal(host) ? "GPS: gpsd is not running" : "GPS: gpsd is not running at \(host):\(port)"
    }
    public static func noAnswer(host: String, port: UInt16) -> String {
        "GPS: gpsd at \(host):\(port) does not answer"
    }
    public static func unreachable(host: String, port: UInt16) -> String {
        "GPS: can't reach gpsd at \(host):\(port)"
    }
    /// `gps.host` is a name: the box never looks one up (a lookup could hold up the alarm).
    public static func unknownHost(_ host: String) -> String {
        "GPS: gps.host \(host) is not an address; give gpsd's address, like 127.0.0.1"
    }
    public static let refused = "GPS: gpsd refused the connection"
    public static let restarted = "GPS: gpsd restarted, waiting for the receiver"
    public static let unplugged = "GPS: receiver unplugged"
    public static let noReceiver = "GPS: no receiver connected to gpsd"
    public static let reportsStopped = "GPS: the receiver stopped sending reports"
    public static let frozen = "GPS: the receiver repeats an old GPS reading"

    /// `offset` is GPS time minus the system clock, in seconds.
    public static func clock(offset: Double) -> String {
        let span = approximate(abs(offset))
        return offset > 0
            ? "Clock: system clock is \(span) behind GPS time"
            : "Clock: system clock is \(span) ahead of GPS time"
    }

    /// Coarse on purpose: the message changes (and is journalled again) only when the span does.
    static func approximate(_ seconds: Double) -> String {
        let minutes = Int(seconds / 60)
        let hours = Int(seconds / 3600)
        let days = Int(seconds / 86_400)
        if days >= 2 { return "\(days) days" }
        if hours >= 2 { return "\(hours) hours" }
        if minutes >= 2 { return "\(minutes) minutes" }
        return "\(Int(seconds)) seconds"
    }

    public static func isLocal(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1"
    }
}
