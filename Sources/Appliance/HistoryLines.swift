import Posix
import WatchCore
import Journal

/// History as JSON lines, one entry per line: {"at":<unix s>,"event":"fix","lat":..,"lon":..}.
/// The interchange form of `WatchHistory` for tests and for `--history FILE` on recap, export
/// and mark, until those read the journal's own reader; the field names follow the journal's
/// record names.
enum HistoryLines {
    struct Failure: Error, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "history line \(line): \(reason)" }
    }

    static func encode(_ e: HistoryEntry) -> String {
        var f: [(String, JSON?)] = [("at", .number(e.at.seconds))]
        func coord(_ c: Coordinate) -> [(String, JSON?)] { [("lat", .number(c.latitude)), ("lon", .number(c.longitude))] }
        switch e.event {
        case .state(let anchor, let radius, let armed):
            f += [("event", .string("state"))] + (anchor.map(coord) ?? []) + [("meters", .number(radius.value)), ("armed", .bool(armed))]
        case .boot(let after): f += [("event", .string("boot")), ("after", .string(after.name))]
        case .shutdown: f.append(("event", .string("shutdown")))
        case .mark(let c): f += [("event", .string("mark"))] + coord(c)
        case .release: f.append(("event", .string("release")))
        case .radius(let m): f += [("event", .string("radius")), ("meters", .number(m.value))]
        case .arm: f.append(("event", .string("arm")))
        case .disarm: f.append(("event", .string("disarm")))
        case .alarmStart(let ep): f += [("event", .string("alarm_start")), ("episode", .int(ep))]
        case .snooze(let ep, let length):
            f += [("event", .string("snooze")), ("episode", .int(ep)), ("length_s", .number(length.seconds))]
        case .alarmStop(let ep): f += [("event", .string("alarm_stop")), ("episode", .int(ep))]
        case .verdict(let from, let to, let reason):
            f += [("event", .string("verdict")), ("from", .string(from.rawValue)), ("to", .string(to.rawValue)),
                  ("reason", .string(reason?.rawValue))]
        case .faultRaised(let fault):
            f += [("event", .string("fault_raised")), ("kind", .string(fault.kind.rawValue)), ("says", .string(fault.message)),
                  ("pushes", .bool(fault.pushes))]
        case .faultCleared(let kind): f += [("event", .string("fault_cleared")), ("kind", .string(kind.rawValue))]
        case .fix(let p, let accuracy, let distance):
            f += [("event", .string("fix"))] + coord(p) + [("accuracy_m", .number(accuracy?.value)), ("distance_m", .number(distance?.value))]
        }
        return JSON.object(f).text
    }

    static func decode(_ text: String, line: Int = 0) throws -> HistoryEntry {
        let j: JSON
        do { j = try JSON.parse(text) } catch { throw Failure(line: line, reason: "\(error)") }
        func need<T>(_ v: T?, _ what: String) throws -> T {
            guard let v else { throw Failure(line: line, reason: "\(what) missing or malformed") }
            return v
        }
        let at = WallTime(seconds: try need(j["at"]?.double, "at"))
        func coord() throws -> Coordinate {
            try need(Coordinate.validated(latitude: j["lat"]?.double ?? .nan, longitude: j["lon"]?.double ?? .nan), "lat/lon")
        }
        let event: HistoryEvent
        switch try need(j["event"]?.string, "event") {
        case "state":
            event = .state(anchor: j["lat"] == nil ? nil : try coord(), radius: Meters(try need(j["meters"]?.double, "meters")),
                           armed: try need(j["armed"]?.bool, "armed"))
        case "boot":
            // A line without "after" (written before it existed) is a start not known to be either.
            let after = j["after"]?.string.flatMap { name in PreviousStop.allCases.first { $0.name == name } }
            event = .boot(after: after ?? .unknown)
        case "shutdown": event = .shutdown
        case "mark": event = .mark(try coord())
        case "release": event = .release
        case "radius": event = .radius(Meters(try need(j["meters"]?.double, "meters")))
        case "arm": event = .arm
        case "disarm": event = .disarm
        case "alarm_start": event = .alarmStart(episode: try need(j["episode"]?.int, "episode"))
        case "snooze":
            event = .snooze(episode: try need(j["episode"]?.int, "episode"), length: .seconds(try need(j["length_s"]?.double, "length_s")))
        case "alarm_stop": event = .alarmStop(episode: try need(j["episode"]?.int, "episode"))
        case "verdict":
            event = .verdict(
                from: try need(j["from"]?.string.flatMap(PositionVerdict.Kind.init(rawValue:)), "from"),
                to: try need(j["to"]?.string.flatMap(PositionVerdict.Kind.init(rawValue:)), "to"),
                reason: j["reason"]?.string.flatMap(CantJudgeReason.init(rawValue:)))
        case "fault_raised":
            event = .faultRaised(Fault(try need(j["kind"]?.string.flatMap(FaultKind.init(rawValue:)), "kind"),
                                       try need(j["says"]?.string, "says"), pushes: j["pushes"]?.bool ?? true))
        case "fault_cleared": event = .faultCleared(try need(j["kind"]?.string.flatMap(FaultKind.init(rawValue:)), "kind"))
        case "fix":
            event = .fix(position: try coord(), accuracy: j["accuracy_m"]?.double.map { Meters($0) },
                         distance: j["distance_m"]?.double.map { Meters($0) })
        case let other: throw Failure(line: line, reason: "unknown event \(other)")
        }
        return HistoryEntry(at: at, event: event)
    }
}

/// A history file of JSON lines.
struct HistoryLinesFile: WatchHistory {
    var path: String

    func scan(_ body: (HistoryEntry) throws -> Void) throws {
        guard let bytes = try Files.readIfPresent(path, limit: 256 << 20) else {
            throw SystemError(call: "open \(path)", errno: .notFound)
        }
        var n = 0
        for line in bytes.split(separator: 0x0A) {
            n += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) { continue }
            try body(try HistoryLines.decode(String(decoding: line, as: UTF8.self), line: n))
        }
    }
}
