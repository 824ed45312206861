import WatchCore

/// "Since you last looked": what happened, worst first. Alarms and faults, then watches that
/// ended, then notes; the quiet stretches in between are left out entirely, and a stretch with
/// nothing to say says so in one line. Built from the journal's history alone.
struct Recap: Sendable {
    enum Section: String, Sendable, CaseIterable {
        case alarmsAndFaults = "alarms_and_faults"
        case watches
        case notes

        var title: String {
            switch self {
            case .alarmsAndFaults: "Alarms and faults"
            case .watches: "Watches"
            case .notes: "Notes"
            }
        }
    }

    struct Item: Hashable, Sendable {
        var at: WallTime
        var says: String
    }

    var since: WallTime
    var until: WallTime
    var sections: [(Section, [Item])]
    /// The newest entry read: what `--ack` stores, so an entry written while the recap was
    /// being read is not skipped next time.
    var lastEntry: WallTime?

    var isEmpty: Bool { sections.allSatisfy { $0.1.isEmpty } }

    func items(_ s: Section) -> [Item] { sections.first { $0.0 == s }?.1 ?? [] }
}

extension Recap {
    /// `history` is the whole journal (older entries give context: the anchor, the radius and
    /// when the watch that just ended began); only what happened after `since` is reported.
    static func build(_ history: [HistoryEntry], since: WallTime, now: WallTime) -> Recap {
        var alarms: [Item] = []
        var watches: [Item] = []
        var notes: [Item] = []

        var radius: Meters?
        var armedAt: WallTime?
        var watchFarthest: Meters?
        var watchAlarms = 0
        var openEpisode: (episode: Int, at: WallTime, farthest: Meters?)?
        var openFaults: [FaultKind: (Fault, WallTime)] = [:]
        var checkingSince: WallTime?
        var checkingBack: [Duration] = []
        var cantJudgeSince: (WallTime, CantJudgeReason?)?
        var cantJudge: [(Duration, CantJudgeReason?)] = []
        // The anchor as the swing since the last mark shows it, from the journal's track.
        var swing = SwingEstimator()
        var mark: Coordinate?
        // The time of the entry before this one: where a run that never shut down went quiet.
        var previousAt: WallTime?

        func when(_ t: WallTime) -> String { now - t > .seconds(20 * 3600) ? t.dateAndClock : t.clock }
        func closeEpisode(_ how: String, at t: WallTime) {
            guard let ep = openEpisode else { return }
            openEpisode = nil
            guard ep.at >= since else { return }
            var text = "Alarm: "
            if let far = ep.farthest {
                text += "the boat reached \(far) from the anchor"
                if let radius { text += " (alert radius \(radius))" }
            } else {
                text += "dragging"
            }
            alarms.append(Item(at: ep.at, says: text + ", \(how) at \(when(t))"))
        }

        for e in history {
            let recent = e.at >= since
            defer { previousAt = e.at }
            switch e.event {
            case .state(_, let r, let armed):
                radius = r
                if armed, armedAt == nil { armedAt = e.at }
                if !armed { armedAt = nil }
            case .boot(let after):
                // A restart ends every fault of the boot before: the new boot raises again what
                // is still wrong, so nothing from before is "still so".
                for (f, at) in openFaults.values.sorted(by: { $0.1 < $1.1 }) where e.at >= since {
                    alarms.append(Item(at: at, says: "\(f.message) (until the box restarted at \(when(e.at)), after \(Self.span(e.at - at)))"))
                }
                openFaults = [:]
                guard recent else { break }
                if after == .unclean {
                    // Failed first: the box was off without shutting down, and watched nothing.
                    let quiet = previousAt.map { " (nothing recorded after \(when($0)))" } ?? ""
                    alarms.append(Item(at: e.at, says: "Box restarted after a power cut or crash\(quiet)"))
                } else {
                    notes.append(Item(at: e.at, says: "Box started"))
                }
            case .shutdown:
                if recent { notes.append(Item(at: e.at, says: "Box stopped")) }
            case .mark(let c):
                if recent { notes.append(Item(at: e.at, says: "Anchor marked at \(c)")) }
                swing.newMark(c, replacing: mark)
                mark = c
            case .release:
                if recent { notes.append(Item(at: e.at, says: "Anchor released")) }
                swing.reset()
                mark = nil
            case .radius(let m):
                radius = m
                if recent { notes.append(Item(at: e.at, says: "Alert radius: \(m)")) }
            case .arm:
                if recent { notes.append(Item(at: e.at, says: "Alarm on")) }
                armedAt = e.at
                watchFarthest = nil
                watchAlarms = 0
            case .disarm:
                closeEpisode("alarm off", at: e.at)
                if let start = armedAt, e.at >= since {
                    var text = "Watch of \(Self.span(e.at - start)), \(when(start)) to \(when(e.at)): "
                    text += watchAlarms == 0 ? "held" : "rang \(watchAlarms == 1 ? "once" : "\(watchAlarms) times")"
                    if let far = watchFarthest { text += ", farthest \(far) from the anchor" }
                    watches.append(Item(at: e.at, says: text))
                }
                armedAt = nil
            case .alarmStart(let ep):
                closeEpisode("rang again", at: e.at)
                openEpisode = (ep, e.at, nil)
                watchAlarms += 1
            case .snooze(let ep, _):
                if openEpisode?.episode == ep { closeEpisode("snoozed", at: e.at) }
            case .alarmStop(let ep):
                if openEpisode?.episode == ep { closeEpisode("the boat came back", at: e.at) }
            case .verdict(let from, let to, let reason):
                if to == .checking, from != .checking { checkingSince = e.at }
                if from == .checking, to == .holding, let s = checkingSince, s >= since { checkingBack.append(e.at - s) }
                if to != .checking { checkingSince = nil }
                if to == .cantJudge, from != .cantJudge { cantJudgeSince = (e.at, reason) }
                if from == .cantJudge, to != .cantJudge, let (s, r) = cantJudgeSince, s >= since {
                    cantJudge.append((e.at - s, r))
                    cantJudgeSince = nil
                }
            case .faultRaised(let f):
                // Raised again in new words (the GPS fault counts its minutes): the same outage,
                // its latest words from its first start.
                openFaults[f.kind] = (f, openFaults[f.kind]?.1 ?? e.at)
            case .faultCleared(let kind):
                if let (f, at) = openFaults.removeValue(forKey: kind), e.at >= since {
                    alarms.append(Item(at: at, says: "\(f.message) (fixed itself at \(when(e.at)), after \(Self.span(e.at - at)))"))
                }
            case .fix(let p, _, let distance):
                if mark != nil { swing.add(p, at: Instant(seconds: e.at.seconds)) }
                if let d = distance {
                    if armedAt != nil { watchFarthest = max(watchFarthest ?? d, d) }
                    if let ep = openEpisode { openEpisode?.farthest = max(ep.farthest ?? d, d) }
                }
            }
        }
        if let ep = openEpisode, ep.at >= since {
            var text = "Alarm: "
            text += ep.farthest.map { "the boat reached \($0) from the anchor" } ?? "dragging"
            if let radius { text += " (alert radius \(radius))" }
            alarms.append(Item(at: ep.at, says: text + ", still ringing"))
        }
        for (f, at) in openFaults.values.sorted(by: { $0.1 < $1.1 }) {
            alarms.append(Item(at: at, says: "\(f.message) (still so)"))
        }
        // The watch still on, if it began since: what it has seen so far.
        if let start = armedAt, start >= since {
            var text = "Watch since \(when(start)), alarm still on: "
            text += watchAlarms == 0 ? "held" : "rang \(watchAlarms == 1 ? "once" : "\(watchAlarms) times")"
            if let far = watchFarthest { text += ", farthest \(far) from the anchor" }
            watches.append(Item(at: start, says: text))
        }
        if !checkingBack.isEmpty, let longest = checkingBack.max() {
            let n = checkingBack.count
            notes.append(Item(at: now, says: "Checking \(n == 1 ? "once" : "\(n) times"), the boat came back "
                + "\(n == 1 ? "" : "each time, ")after \(n == 1 ? "" : "at most ")\(Self.span(longest))"))
        }
        if !cantJudge.isEmpty, let longest = cantJudge.max(by: { $0.0 < $1.0 }) {
            let n = cantJudge.count
            let why = longest.1.map { ": " + Words.cantJudge($0).lowercasedFirst } ?? ""
            notes.append(Item(at: now, says: "Can't judge \(n == 1 ? "once" : "\(n) times"), longest \(Self.span(longest.0))\(why)"))
        }
        if let mark, let est = swing.estimate, est.at.seconds >= since.seconds, let offer = SwingOffer(mark: mark, est) {
            notes.append(Item(at: WallTime(seconds: est.at.seconds),
                              says: "\(offer.says). To move the mark there: anchor-alert mark --from-swing"))
        }
        alarms.sort { $0.at < $1.at }
        notes.sort { $0.at < $1.at }
        return Recap(since: since, until: now,
                     sections: [(.alarmsAndFaults, alarms), (.watches, watches), (.notes, notes)],
                     lastEntry: history.last?.at)
    }

    /// "8 h 35 min", "12 min", "40 s".
    static func span(_ d: Duration) -> String {
        let s = max(0, Int(d.seconds.rounded()))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        let m = (s % 3600) / 60
        return m == 0 ? "\(s / 3600) h" : "\(s / 3600) h \(m) min"
    }

    /// A note the journal doesn't hold, from the running box: the radius advice.
    mutating func note(_ says: String, at: WallTime) {
        guard let i = sections.firstIndex(where: { $0.0 == .notes }) else { return }
        sections[i].1.append(Item(at: at, says: says))
    }

    func lines() -> [String] {
        let from = until - since > .seconds(20 * 3600) ? since.dateAndClock : since.clock
        if isEmpty { return ["Nothing to report since \(from): no alarms, no faults, no watch began or ended"] }
        var out = ["Since \(from):"]
        for (section, items) in sections where !items.isEmpty {
            out.append("")
            out.append(section.title)
            for item in items {
                let t = until - item.at > .seconds(20 * 3600) ? item.at.dateAndClock : item.at.clock
                out.append("  \(t)  \(item.says)")
            }
        }
        return out
    }

    var json: JSON {
        var f: [(String, JSON)] = [("since", .number(since.seconds)), ("until", .number(until.seconds)), ("nothing", .bool(isEmpty))]
        for (section, items) in sections {
            f.append((section.rawValue, .array(items.map { .object([("at", .number($0.at.seconds)), ("says", .string($0.says))]) })))
        }
        return .object(f)
    }
}

extension String {
    /// The first letter lowered to go inside a sentence, unless it starts a word in capitals
    /// ("GPS reading is old" stays as it is).
    var lowercasedFirst: String {
        let second = dropFirst().first
        if let second, second.isUppercase { return self }
        return prefix(1).lowercased() + dropFirst()
    }
}
