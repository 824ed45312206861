import Posix
import WatchCore

/// The box as Signal K deltas (Docs/network.md, "Signal K"): one JSON object a line, as a
/// Signal K server's "Signal K" data connection reads a device over TCP. Pure but for the
/// calendar arithmetic of the timestamp.
///
/// Paths and values as the Signal K specification defines them (schemas/groups/navigation.json,
/// schemas/groups/notifications.json, schemas/definitions.json):
/// - `navigation.anchor.position` `{latitude, longitude}` (deg), `navigation.anchor.maxRadius`
///   (the alert radius, m), `navigation.anchor.currentRadius` (from the anchor to the boat, m);
///   null while no anchor is marked.
/// - `notifications.navigation.anchor`: `{state, method, message}`, state one of the
///   specification's alarmState values, method a list of `visual` and `sound`.
/// - `notifications.navigation.gnss`: the GPS fault (the specification's own example path for
///   "GPS signal lost").
enum SignalKDelta {
    /// What the notifications say, compared to decide whether a line is due.
    struct Notification: Hashable {
        var state: String
        var method: [String]
        var message: String

        var json: JSON {
            .object([("state", .string(state)), ("method", .array(method.map { .string($0) })), ("message", .string(message))])
        }
    }

    static let anchorPath = "notifications.navigation.anchor"
    static let gnssPath = "notifications.navigation.gnss"

    /// The anchor alarm: ringing is an `alarm` with sound; snoozed stays an `alarm` shown but
    /// silent (the Signal K server's own silence takes `sound` out of the method the same way);
    /// otherwise `normal`, with what the box says.
    static func anchor(_ status: WatchStatus, now: Instant) -> Notification {
        let distance = status.distance.map { "\($0) from anchor" } ?? "position unknown"
        switch status.alarm {
        case .ringing:
            return Notification(state: "alarm", method: ["visual", "sound"],
                                message: "Dragging: \(distance) (alert radius \(status.radius))")
        case .snoozed:
            return Notification(state: "alarm", method: ["visual"],
                                message: "Snoozed: \(distance) (alert radius \(status.radius))")
        case .off, .armed:
            return Notification(state: "normal", method: [], message: Words.alarm(status.alarm, now: now))
        }
    }

    /// The GPS fault: a `warn` while any GPS fault is active (with sound while its fault pattern
    /// sounds), `normal` otherwise. The GPS-lost fault's message says how long since the last
    /// usable reading.
    static func gnss(_ status: WatchStatus) -> Notification {
        let kinds: [FaultKind] = [.gpsLost, .gpsd, .receiver]
        guard let fault = status.faults.first(where: { kinds.contains($0.kind) }) else {
            return Notification(state: "normal", method: [], message: "GPS: no fault")
        }
        return Notification(state: "warn", method: fault.pushes && status.faultSounding ? ["visual", "sound"] : ["visual"],
                            message: fault.kind == .gpsLost ? status.gpsLostText ?? fault.message : fault.message)
    }

    /// One delta line: the anchor's values, and the notifications when `notifications` is set.
    static func line(_ status: WatchStatus, now: Instant, wall: Double, notifications: Bool) -> String {
        var values: [JSON] = []
        func value(_ path: String, _ v: JSON) { values.append(.object([("path", .string(path)), ("value", v)])) }
        if let anchor = status.anchor {
            value("navigation.anchor.position", .object([("latitude", .number(anchor.latitude)), ("longitude", .number(anchor.longitude))]))
            value("navigation.anchor.maxRadius", .number(status.radius.value))
            value("navigation.anchor.currentRadius", status.distance.map { .number(($0.value * 10).rounded() / 10) } ?? .null)
        } else {
            value("navigation.anchor.position", .null)
            value("navigation.anchor.maxRadius", .null)
            value("navigation.anchor.currentRadius", .null)
        }
        if notifications {
            value(anchorPath, anchor(status, now: now).json)
            value(gnssPath, gnss(status).json)
        }
        let update: JSON = .object([
            ("source", .object([("label", .string("anchor-alert")), ("type", .string("signalk"))])),
            ("timestamp", .string(timestamp(wall))),
            ("values", .array(values)),
        ])
        return JSON.object([("context", .string("vessels.self")), ("updates", .array([update]))]).text + "\n"
    }

    /// RFC 3339 in UTC with milliseconds, as the specification's `timestamp` asks (ends in Z).
    static func timestamp(_ wall: Double) -> String {
        // Whole milliseconds first, so a fraction is never split by binary rounding (.999 as .998).
        let ms = Int64((wall * 1000).rounded())
        let t = CalendarTime(seconds: Double(ms / 1000), utc: true)
        func pad(_ n: Int, _ width: Int) -> String {
            var s = String(n)
            while s.count < width { s = "0" + s }
            return s
        }
        return "\(pad(t.year, 4))-\(pad(t.month, 2))-\(pad(t.day, 2))T\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2)).\(pad(Int(ms % 1000), 3))Z"
    }
}
