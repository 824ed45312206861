import WatchCore

/// What the box says now, as one file other processes read (`status.json` in the runtime
/// directory). Readers never compute the watch's state: every word below was decided by the
/// box. The snapshot carries its own frame: when it was written and until when it may be
/// believed; past that, a reader says the box is not answering instead of repeating it.
struct StatusSnapshot: Hashable, Sendable {
    static let format = "anchor-alert-status"
    static let version = 1

    /// Who wrote it: a reader on the same boot compares monotonic clocks (immune to the wall
    /// clock jumping at boot) and checks the pid is still alive.
    struct Writer: Hashable, Sendable {
        var bootID: String
        var pid: Int32
        /// The writer's CLOCK_MONOTONIC at the write, seconds.
        var monotonic: Double
    }

    struct Position: Hashable, Sendable {
        var verdict: PositionVerdict.Kind
        /// The one phrase for the state: Holding, Checking, Dragging, Can't judge, No anchor.
        var says: String
        var progress: Double?
        var cantJudge: CantJudgeReason?
        var cantJudgeSays: String?

        init(verdict: PositionVerdict.Kind, says: String, progress: Double?, cantJudge: CantJudgeReason?, cantJudgeSays: String?) {
            self.verdict = verdict
            self.says = says
            self.progress = progress
            self.cantJudge = cantJudge
            self.cantJudgeSays = cantJudgeSays
        }

        init(_ v: PositionVerdict) {
            var progress: Double?
            var reason: CantJudgeReason?
            switch v {
            case .checking(let p): progress = p
            case .cantJudge(let r): reason = r
            default: break
            }
            self.init(verdict: v.kind, says: Words.verdict(v.kind), progress: progress, cantJudge: reason,
                      cantJudgeSays: reason.map(Words.cantJudge))
        }

        var json: JSON {
            .object([
                ("verdict", .string(verdict.rawValue)),
                ("says", .string(says)),
                ("progress", .number(progress)),
                ("cant_judge", .string(cantJudge?.rawValue)),
                ("cant_judge_says", .string(cantJudgeSays)),
            ])
        }
    }

    struct Alarm: Hashable, Sendable {
        var state: AlarmState.Kind
        var says: String
        /// The episode a snooze must name, while ringing or snoozed.
        var episode: Int?
        var snoozedUntil: WallTime?
    }

    struct GPS: Hashable, Sendable {
        /// When the last GPS reading (usable or not) arrived, on the wall clock.
        var readingAt: WallTime?
        var accuracy: Meters?
    }

    var writer: Writer
    var writtenAt: WallTime
    var validUntil: WallTime
    var position: Position
    var alarm: Alarm
    /// "Won't ring: alarm is off", "Rings unless the boat comes back"...
    var wontRing: String
    /// Whether anything on the box can sound the alarm: false with no buzzer and no siren fitted
    /// (or both faulty), when `wontRing` says "Won't ring: nothing can sound the alarm" and
    /// every surface says it first.
    var canSound = true
    var anchor: Coordinate?
    var radius: Meters
    var distance: Meters?
    var gps: GPS
    var faults: [Fault]
    /// While the GPS-lost fault is up: its cause and since when (wall), so a reader says how
    /// long as of when it reads (`faultWords`), not as of the write or the raise.
    var gpsLost: GPSLostSince? = nil
    var faultSounding: Bool
    /// The receiver's measured wander, and the radius advice when the alert radius is too
    /// close to the swing for it (Docs/verdict.md).
    var wander: Meters? = nil
    var radiusAdvice: String? = nil
    /// How far beyond the alert radius this receiver rings, once its wander is measured.
    var ringDistance: String? = nil
    /// The Systems Check as the box ran it.
    var checks: [SystemsCheck.Row]
    /// At a glance (StatusSnapshot+Glance.swift): where the boat is, the farthest it has been
    /// from the mark, the anchor learnt from the swing and what it offers.
    var glance = Glance()

    /// How long past `writtenAt` a snapshot stays believable: the writer's steady interval
    /// twice over plus slack for one slow turn (a journal sync on a tired SD card).
    static func validity(interval: Duration) -> Duration { interval * 2 + .seconds(15) }
}

extension StatusSnapshot {
    /// Builds the snapshot from what the watch says at `now` (monotonic) and `wall` (the same
    /// moment on the wall clock). Times that are monotonic in the watch become wall times
    /// here, so a reader in another process can use them.
    init(
        status: WatchStatus, now: Instant, wall: WallTime, writer: Writer, validFor: Duration,
        checks: [SystemsCheck.Row]
    ) {
        let validUntil = Self.validUntil(status, now: now, wall: wall, validFor: validFor)
        var snoozedUntil: WallTime?
        if case .snoozed(let until, _) = status.alarm { snoozedUntil = wall + (until - now) }
        self.init(
            writer: writer, writtenAt: wall, validUntil: validUntil,
            position: Position(status.verdict),
            alarm: Alarm(
                state: status.alarm.kind, says: Words.alarm(status.alarm, now: now), episode: status.alarm.episode,
                snoozedUntil: snoozedUntil),
            wontRing: status.wontRing,
            anchor: status.anchor, radius: status.radius, distance: status.distance,
            gps: GPS(readingAt: status.readingAge.map { wall - $0 }, accuracy: status.accuracy),
            faults: status.faults, faultSounding: status.faultSounding,
            wander: status.wander, radiusAdvice: status.radiusAdvice, checks: checks,
            glance: Glance(status))
        ringDistance = status.ringDistance
        gpsLost = status.gpsLost.map { GPSLostSince(reason: $0.reason, since: wall - $0.lost, judgeable: $0.judgeable) }
    }

    struct GPSLostSince: Hashable, Sendable {
        var reason: CantJudgeReason
        var since: WallTime
        var judgeable: Meters?
    }

    /// A fault's words as of `now`: the GPS-lost fault says how long it has been lost now.
    func faultWords(_ f: Fault, now: WallTime) -> String {
        guard f.kind == .gpsLost, let g = gpsLost else { return f.message }
        return GPSLost(reason: g.reason, lost: max(.zero, now - g.since), judgeable: g.judgeable).words(radius: radius)
    }

    /// The box's Systems Check as of `now`: the GPS row, which quotes the GPS-lost fault, in
    /// that fault's words as of now (`faultWords`), not as of the write.
    func checks(now: WallTime) -> [SystemsCheck.Row] {
        guard let f = faults.first(where: { $0.kind == .gpsLost }) else { return checks }
        return checks.map { row in
            guard row.component == .gpsReading, row.answer == "No: \(f.message)" else { return row }
            var asOfNow = row
            asOfNow.answer = "No: \(faultWords(f, now: now))"
            return asOfNow
        }
    }

    /// How long a snapshot written at `wall` may be believed: `validFor`, and never more than
    /// 5 s past a snooze's end (at the snooze's end the box decides again; until it has written
    /// that, this snapshot must not be believed).
    static func validUntil(_ status: WatchStatus, now: Instant, wall: WallTime, validFor: Duration) -> WallTime {
        var validUntil = wall + validFor
        if case .snoozed(let until, _) = status.alarm { validUntil = min(validUntil, wall + (until - now) + .seconds(5)) }
        return validUntil
    }

    /// The part whose change is worth a write at once: what the box says (verdict, alarm, why
    /// it won't ring, anchor, radius, faults, checks). The frame, the reading's arrival, the
    /// distance and accuracy (which move with every fix of a swinging boat: measured, 119
    /// writes in 70 s when they counted) and a snooze's running countdown (the reader counts
    /// down from `snoozed_until`) wait for the steady rate, so a holding box writes twice a
    /// minute, not on every fix.
    var content: JSON {
        let snoozed = alarm.state == .snoozed
        return .object([
            ("verdict", .string(position.verdict.rawValue)),
            ("cant_judge", .string(position.cantJudge?.rawValue)),
            ("alarm", .string(alarm.state.rawValue)),
            ("alarm_says", snoozed ? nil : .string(alarm.says)),
            ("episode", .int(alarm.episode)),
            ("snoozed_until", .int(alarm.snoozedUntil.map { Int($0.seconds.rounded()) })),
            ("wont_ring", snoozed ? nil : .string(wontRing)),
            ("can_sound", .bool(canSound)),
            ("anchor", .string(anchor?.description)),
            ("radius", .number(radius.value)),
            ("faults", .array(faults.map { .string("\($0.kind.rawValue) \($0.pushes) \($0.message)") })),
            ("fault_sounding", .bool(faultSounding)),
            ("radius_advice", .string(radiusAdvice)),
            ("ring_distance", .string(ringDistance)),
            ("checks", .array(checks.map(\.json))),
            ("glance", glance.content),
        ] as [(String, JSON?)])
    }
}

// MARK: - Encoding

extension StatusSnapshot {
    var json: JSON { .object(staticFields + live.fields) }

    /// What moves with every GPS reading: the frame (who wrote it, when, until when), the
    /// position (checking's progress), the distance, the reading's arrival and accuracy, the
    /// boat's position and the farthest distance. While it matters the box rewrites these alone on every reading
    /// (`SnapshotWriter`), after the rest as it last encoded it: a write of a few fields, not
    /// of the whole snapshot.
    struct Live: Hashable, Sendable {
        var position: Position
        var writer: Writer
        var writtenAt: WallTime
        var validUntil: WallTime
        var distance: Meters?
        var gps: GPS
        var wander: Meters?
        var boat: Coordinate?
        var farthest: Meters?

        init(position: Position, writer: Writer, writtenAt: WallTime, validUntil: WallTime, distance: Meters?, gps: GPS,
             wander: Meters?, boat: Coordinate?, farthest: Meters?) {
            self.position = position
            self.writer = writer
            self.writtenAt = writtenAt
            self.validUntil = validUntil
            self.distance = distance
            self.gps = gps
            self.wander = wander
            self.boat = boat
            self.farthest = farthest
        }

        /// From the watch's status, as `StatusSnapshot.init(status:...)` takes them.
        init(status: WatchStatus, now: Instant, wall: WallTime, writer: Writer, validFor: Duration) {
            self.init(position: Position(status.verdict), writer: writer, writtenAt: wall, validUntil: StatusSnapshot.validUntil(status, now: now, wall: wall, validFor: validFor),
                      distance: status.distance, gps: GPS(readingAt: status.readingAge.map { wall - $0 }, accuracy: status.accuracy),
                      wander: status.wander, boat: status.boat, farthest: status.farthest)
        }

        /// `fields`, written after `out`'s fields at the top level: the same text the JSON
        /// would give, without building it.
        func write(into fields: inout IndentedFields) {
            fields.object("position") { p in
                p.string("verdict", position.verdict.rawValue)
                p.string("says", position.says)
                p.number("progress", position.progress)
                p.string("cant_judge", position.cantJudge?.rawValue)
                p.string("cant_judge_says", position.cantJudgeSays)
            }
            fields.object("box") { b in
                b.string("boot_id", writer.bootID)
                b.int("pid", Int(writer.pid))
                b.number("monotonic_s", writer.monotonic)
            }
            fields.number("written_at", writtenAt.seconds)
            fields.number("valid_until", validUntil.seconds)
            fields.number("distance_m", distance?.value)
            fields.object("gps") { g in
                g.number("reading_at", gps.readingAt?.seconds)
                g.number("accuracy_m", gps.accuracy?.value)
                g.number("wander_m", wander?.value)
            }
            if let boat {
                fields.object("boat") { c in
                    c.number("lat", boat.latitude)
                    c.number("lon", boat.longitude)
                }
            }
            fields.number("farthest_m", farthest?.value)
        }

        var fields: [(String, JSON?)] {
            [
                ("position", position.json),
                ("box", .object([
                    ("boot_id", .string(writer.bootID)),
                    ("pid", .int(Int(writer.pid))),
                    ("monotonic_s", .number(writer.monotonic)),
                ])),
                ("written_at", .number(writtenAt.seconds)),
                ("valid_until", .number(validUntil.seconds)),
                ("distance_m", .number(distance?.value)),
                ("gps", JSON.object([
                    ("reading_at", .number(gps.readingAt?.seconds)),
                    ("accuracy_m", .number(gps.accuracy?.value)),
                    ("wander_m", .number(wander?.value)),
                ])),
                ("boat", boat.map(Glance.coordinate)),
                ("farthest_m", .number(farthest?.value)),
            ]
        }
    }

    var live: Live {
        Live(position: position, writer: writer, writtenAt: writtenAt, validUntil: validUntil, distance: distance, gps: gps, wander: wander,
             boat: glance.boat, farthest: glance.farthest)
    }

    /// Everything but `live`.
    var staticFields: [(String, JSON?)] {
        ([
            ("format", .string(Self.format)),
            ("version", .int(Self.version)),
            ("alarm", JSON.object([
                ("state", .string(alarm.state.rawValue)),
                ("says", .string(alarm.says)),
                ("episode", .int(alarm.episode)),
                ("snoozed_until", .number(alarm.snoozedUntil?.seconds)),
            ])),
            ("wont_ring", .string(wontRing)),
            ("can_sound", .bool(canSound)),
            ("anchor", anchor.map { .object([("lat", .number($0.latitude)), ("lon", .number($0.longitude))]) }),
            ("alert_radius_m", .number(radius.value)),
            ("radius_advice", .string(radiusAdvice)),
            ("ring_distance", .string(ringDistance)),
            ("faults", .array(faults.map {
                .object([("kind", .string($0.kind.rawValue)), ("says", .string($0.message)), ("pushes", .bool($0.pushes))])
            })),
            ("gps_lost", gpsLost.map { g in
                .object([("reason", .string(g.reason.rawValue)), ("since", .number(g.since.seconds)),
                         ("judgeable_m", .number(g.judgeable?.value))] as [(String, JSON?)])
            }),
            ("fault_sounding", .bool(faultSounding)),
            ("checks", .array(checks.map(\.json))),
        ] as [(String, JSON?)]) + glance.fields
    }

    struct DecodeError: Error, CustomStringConvertible {
        var description: String
    }

    init(json: JSON) throws {
        func need<T>(_ v: T?, _ what: String) throws -> T {
            guard let v else { throw DecodeError(description: "snapshot: \(what) missing or malformed") }
            return v
        }
        guard json["format"]?.string == Self.format else { throw DecodeError(description: "not an anchor-alert status file") }
        guard json["version"]?.int == Self.version else {
            throw DecodeError(description: "status file version \(json["version"]?.int ?? 0) is not \(Self.version)")
        }
        let box = try need(json["box"], "box")
        writer = Writer(
            bootID: try need(box["boot_id"]?.string, "box.boot_id"),
            pid: Int32(try need(box["pid"]?.int, "box.pid")),
            monotonic: try need(box["monotonic_s"]?.double, "box.monotonic_s"))
        writtenAt = WallTime(seconds: try need(json["written_at"]?.double, "written_at"))
        validUntil = WallTime(seconds: try need(json["valid_until"]?.double, "valid_until"))
        let p = try need(json["position"], "position")
        position = Position(
            verdict: try need(p["verdict"]?.string.flatMap(PositionVerdict.Kind.init(rawValue:)), "position.verdict"),
            says: try need(p["says"]?.string, "position.says"),
            progress: p["progress"]?.double,
            cantJudge: p["cant_judge"]?.string.flatMap(CantJudgeReason.init(rawValue:)),
            cantJudgeSays: p["cant_judge_says"]?.string)
        let a = try need(json["alarm"], "alarm")
        alarm = Alarm(
            state: try need(a["state"]?.string.flatMap(AlarmState.Kind.init(rawValue:)), "alarm.state"),
            says: try need(a["says"]?.string, "alarm.says"),
            episode: a["episode"]?.int,
            snoozedUntil: a["snoozed_until"]?.double.map(WallTime.init(seconds:)))
        wontRing = try need(json["wont_ring"]?.string, "wont_ring")
        canSound = json["can_sound"]?.bool ?? true
        if let an = json["anchor"] {
            anchor = try need(
                Coordinate.validated(latitude: an["lat"]?.double ?? .nan, longitude: an["lon"]?.double ?? .nan), "anchor")
        } else {
            anchor = nil
        }
        radius = Meters(try need(json["alert_radius_m"]?.double, "alert_radius_m"))
        distance = json["distance_m"]?.double.map { Meters($0) }
        let g = json["gps"]
        gps = GPS(readingAt: g?["reading_at"]?.double.map(WallTime.init(seconds:)),
                  accuracy: g?["accuracy_m"]?.double.map { Meters($0) })
        faults = try (json["faults"]?.array ?? []).map { f in
            Fault(try need(f["kind"]?.string.flatMap(FaultKind.init(rawValue:)), "fault.kind"),
                  try need(f["says"]?.string, "fault.says"), pushes: f["pushes"]?.bool ?? true)
        }
        if let g = json["gps_lost"], let reason = g["reason"]?.string.flatMap(CantJudgeReason.init(rawValue:)),
           let since = g["since"]?.double, since.isFinite {
            gpsLost = GPSLostSince(reason: reason, since: WallTime(seconds: since), judgeable: g["judgeable_m"]?.double.map { Meters($0) })
        }
        faultSounding = json["fault_sounding"]?.bool ?? false
        wander = g?["wander_m"]?.double.map { Meters($0) }
        radiusAdvice = json["radius_advice"]?.string
        ringDistance = json["ring_distance"]?.string
        checks = try (json["checks"]?.array ?? []).map(SystemsCheck.Row.init(json:))
        glance = Glance(json: json)
    }
}
