import Recordings
import WatchCore

/// What `anchor-alert fleet` knows of each box on a broker and how it says it: alarms first,
/// then boxes with a fault or that can't be heard from, then the rest (holding). Pure.
struct FleetView {
    struct Box: Equatable {
        var name: String
        var snapshot: StatusSnapshot?
        /// The box's last will or its clean stop: "offline"; "online" while connected.
        var online: String?
    }

    var boxes: [String: Box] = [:]

    /// Reads one message; returns the box's name when it was about a box.
    @discardableResult
    mutating func take(topic: String, payload: [UInt8], prefix: String) -> String? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 2, !levels[0].isEmpty else { return nil }
        let name = String(levels[0])
        var box = boxes[name] ?? Box(name: name)
        switch levels[1] {
        case "status":
            // An empty retained message clears the box; garbage leaves what was known.
            if payload.isEmpty { boxes[name] = nil; return name }
            guard let json = try? JSON.parse(bytes: payload), let s = try? StatusSnapshot(json: json) else { return nil }
            box.snapshot = s
        case "online":
            box.online = String(decoding: payload, as: UTF8.self)
        default:
            return nil
        }
        boxes[name] = box
        return name
    }

    enum Standing: Int, Comparable {
        case alarm = 0, attention = 1, calm = 2
        static func < (a: Standing, b: Standing) -> Bool { a.rawValue < b.rawValue }
    }

    static func heard(_ b: Box, now: WallTime) -> Bool {
        guard let s = b.snapshot else { return false }
        return now <= s.validUntil && b.online != "offline"
    }

    static func standing(_ b: Box, now: WallTime) -> Standing {
        guard let s = b.snapshot else { return .attention }
        if s.alarm.state == .ringing || s.alarm.state == .snoozed { return .alarm }
        if !heard(b, now: now) || !s.faults.isEmpty { return .attention }
        switch s.position.verdict {
        case .holding, .noAnchor: return .calm
        case .checking, .dragging, .cantJudge: return .attention
        }
    }

    func sorted(now: WallTime) -> [Box] {
        boxes.values.sorted {
            let a = Self.standing($0, now: now), b = Self.standing($1, now: now)
            return a != b ? a < b : $0.name < $1.name
        }
    }

    /// One line for a box, in the product's words.
    static func line(_ b: Box, now: WallTime, width: Int) -> String {
        let name = b.name.padded(width + 1)
        guard let s = b.snapshot else { return "\(name) Not heard from: no status yet" }
        let age = WallTime.ago(now - s.writtenAt)
        if b.online == "offline" {
            return "\(name) Offline: the box left the broker; last said \(s.position.says), \(age)"
        }
        if now > s.validUntil {
            return "\(name) Not heard from since \(age); last said \(s.position.says)"
        }
        var parts = [s.position.says, s.alarm.says]
        if let d = s.distance { parts.append("\(d) from anchor") }
        if let f = s.faults.first {
            parts.append(s.faults.count == 1 ? f.message : "\(s.faults.count) faults, first \(f.message)")
        }
        return "\(name) \(parts.joined(separator: ". ")). \(age)"
    }

    func lines(now: WallTime) -> [String] {
        let all = sorted(now: now)
        let width = all.map(\.name.count).max() ?? 0
        let alarms = all.filter { Self.standing($0, now: now) == .alarm }.count
        let attention = all.filter { Self.standing($0, now: now) == .attention }.count
        var head = "Fleet: \(all.count) box\(all.count == 1 ? "" : "es")"
        head += "; \(alarms) alarm\(alarms == 1 ? "" : "s"), \(attention) to look at, \(all.count - alarms - attention) calm"
        return [head] + all.map { Self.line($0, now: now, width: width) }
    }

    /// The `--json` form of one box, for scripts.
    static func json(_ b: Box, now: WallTime) -> JSON {
        .object([
            ("box", .string(b.name)),
            ("standing", .string(["alarm", "attention", "calm"][standing(b, now: now).rawValue])),
            ("heard", .bool(heard(b, now: now))),
            ("online", .string(b.online)),
            ("verdict", .string(b.snapshot?.position.verdict.rawValue)),
            ("alarm", .string(b.snapshot?.alarm.state.rawValue)),
            ("episode", .int(b.snapshot?.alarm.episode)),
            ("faults", .int(b.snapshot?.faults.count)),
            ("written_at", .number(b.snapshot?.writtenAt.seconds)),
            ("valid_until", .number(b.snapshot?.validUntil.seconds)),
            ("seen_at", .number(now.seconds)),
        ] as [(String, JSON?)])
    }
}
