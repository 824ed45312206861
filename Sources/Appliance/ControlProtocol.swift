import WatchCore

/// The control socket's protocol: one JSON object per line each way, a request answered by
/// exactly one reply carrying the request's id. Docs/commands.md has the reference.
///
/// Request: {"id":"c1","decision":"snooze","episode":3}
///   decision "mark" (here), "mark" with "bearing_deg" and "distance_m" (from here), "mark"
///   with "lat" and "lon" (a known position), "radius" with "meters", "snooze" with
///   "episode", "release". Arming is refused: it stays on the physical switch.
/// Reply: {"id":"c1","result":"receipt"|"refused"|"error", "says": "<the product's words>", ...}
enum ControlProtocol {
    static let socketName = "control.sock"
    /// A request is a few dozen bytes; anything longer is refused and the client dropped.
    static let maxLine = 1024
    static let maxIDLength = 64

    static func socketPath(_ dir: String) -> String { dir + "/" + socketName }

    enum RequestError: Error, Equatable {
        case malformed(String)
        case tooLong
        case unknownDecision(String)
        case notAllowed(String)

        var code: String {
            switch self {
            case .malformed: "malformed"
            case .tooLong: "too_long"
            case .unknownDecision: "unknown_decision"
            case .notAllowed: "not_allowed"
            }
        }

        var says: String {
            switch self {
            case .malformed(let why): "Request refused: not understood (\(why))"
            case .tooLong: "Request refused: longer than \(ControlProtocol.maxLine) bytes"
            case .unknownDecision(let d): "Request refused: no decision called \"\(d)\""
            case .notAllowed(let d):
                d == "arm" || d == "disarm" ? "Can't \(d) from here: use the switch on the box" : "Request refused: \(d) is not allowed"
            }
        }
    }

    /// Parses one request line. The id is returned even when the rest is refused, so the
    /// refusal can name the request it answers.
    static func parse(_ line: [UInt8]) -> (id: String?, result: Result<Decision, RequestError>) {
        guard line.count <= maxLine else { return (nil, .failure(.tooLong)) }
        let json: JSON
        do { json = try JSON.parse(bytes: line) } catch { return (nil, .failure(.malformed("\(error)"))) }
        guard case .object = json else { return (nil, .failure(.malformed("not an object"))) }
        var id: String?
        if let raw = json["id"] {
            guard let s = raw.string, !s.isEmpty, s.utf8.count <= maxIDLength else {
                return (nil, .failure(.malformed("id must be a short string")))
            }
            id = s
        }
        guard let name = json["decision"]?.string else { return (id, .failure(.malformed("no decision"))) }
        func number(_ key: String) -> Double? { json[key]?.double }
        switch name {
        case "mark":
            if let lat = number("lat"), let lon = number("lon") {
                guard let c = Coordinate.validated(latitude: lat, longitude: lon) else {
                    return (id, .failure(.malformed("lat and lon out of range")))
                }
                return (id, .success(.mark(.at(c))))
            }
            if let bearing = number("bearing_deg"), let distance = number("distance_m") {
                guard (0..<360).contains(bearing), distance >= 0 else {
                    return (id, .failure(.malformed("bearing_deg must be 0 to 359, distance_m at least 0")))
                }
                return (id, .success(.mark(.offset(bearing: bearing, distance: Meters(distance)))))
            }
            if json["lat"] != nil || json["lon"] != nil || json["bearing_deg"] != nil || json["distance_m"] != nil {
                return (id, .failure(.malformed("mark needs lat and lon, or bearing_deg and distance_m, or neither")))
            }
            if json["from_swing"]?.bool == true { return (id, .success(.mark(.fromSwing))) }
            return (id, .success(.mark(.here)))
        case "radius":
            guard let m = number("meters") else { return (id, .failure(.malformed("radius needs meters"))) }
            return (id, .success(.setRadius(Meters(m))))
        case "snooze":
            guard let e = json["episode"]?.int else { return (id, .failure(.malformed("snooze needs the alarm's episode"))) }
            return (id, .success(.snooze(episode: e)))
        case "release":
            return (id, .success(.release))
        case "arm", "disarm":
            return (id, .failure(.notAllowed(name)))
        default:
            return (id, .failure(.unknownDecision(name)))
        }
    }

    /// The request line a client sends (without the newline).
    static func request(id: String, _ decision: Decision) -> String {
        var fields: [(String, JSON)] = [("id", .string(id)), ("decision", .string(decision.name))]
        switch decision {
        case .mark(.here), .release, .arm, .disarm: break
        case .mark(.fromSwing): fields.append(("from_swing", .bool(true)))
        case .mark(.offset(let bearing, let distance)):
            fields += [("bearing_deg", .number(bearing)), ("distance_m", .number(distance.value))]
        case .mark(.at(let c)):
            fields += [("lat", .number(c.latitude)), ("lon", .number(c.longitude))]
        case .snooze(let episode): fields.append(("episode", .number(Double(episode))))
        case .setRadius(let m): fields.append(("meters", .number(m.value)))
        }
        return JSON.object(fields).text
    }
}

/// What the box answers to one request.
enum ControlReply: Hashable, Sendable {
    /// Accepted and, when `saved`, durable in the journal. Sent only after the journal's sync.
    case receipt(Receipt, saved: Bool, says: String)
    /// Refused by the watch, with its reason. Sent at once.
    case refused(Decision, Refusal, says: String)
    /// Refused before reaching the watch (malformed, too long, busy...). Sent at once.
    case error(code: String, says: String)

    /// The receipt in the product's words, with "not saved" when the journal failed, as the
    /// loop sends it. `now` is the loop's instant (a snooze counts down from it).
    static func receipt(_ r: Receipt, saved: Bool, now: Instant) -> ControlReply {
        var says = Words.receipt(r, now: now)
        if !saved { says += ". " + ConsoleLog.notSaved }
        return .receipt(r, saved: saved, says: says)
    }

    static func refused(_ d: Decision, _ why: Refusal, settings: WatchSettings = WatchSettings()) -> ControlReply {
        .refused(d, why, says: Words.refusal(why, settings: settings))
    }

    /// A decision the watch took silently (nothing to change) still gets an answer.
    static let nothingToDo = ControlReply.error(code: "nothing_to_do", says: "Nothing to do: the box already is that way")

    func json(id: String?) -> JSON {
        var f: [(String, JSON?)] = [("id", .string(id))]
        switch self {
        case .receipt(let r, let saved, let says):
            f += [("result", .string("receipt")), ("says", .string(says)), ("decision", .string(r.decision.name)),
                  ("saved", .bool(saved)), ("alarm", .string(r.alarm.kind.rawValue)), ("episode", .int(r.alarm.episode)),
                  ("alert_radius_m", .number(r.radius.value)),
                  ("anchor", r.anchor.map { .object([("lat", .number($0.latitude)), ("lon", .number($0.longitude))]) })]
        case .refused(let d, let why, let says):
            f += [("result", .string("refused")), ("says", .string(says)), ("decision", .string(d.name)),
                  ("refusal", .string(why.rawValue))]
        case .error(let code, let says):
            f += [("result", .string("error")), ("says", .string(says)), ("error", .string(code))]
        }
        return JSON.object(f)
    }
}
