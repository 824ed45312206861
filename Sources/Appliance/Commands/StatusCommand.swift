import WatchCore

/// `anchor-alert status`: what the box says now, read from its snapshot. It never computes the
/// watch's state: past the snapshot's valid-until it says the box is not answering.
enum StatusCommand: Command {
    static let name = "status"
    static let summary = "What the box says now, or that it is not answering"
    static let help = """
        Usage: anchor-alert status [--json] [--runtime-dir DIR] [--config FILE]

        Prints what the running box last said, if it may still be believed: the position
        (Holding, Checking, Dragging, Can't judge), the alarm, why it won't ring, the distance
        to the anchor, the GPS reading, faults. The box writes its status on every change and
        every 30 s, and while checking, dragging or ringing with the readings (within about a
        second); a status past its time is not shown: the box is not answering.

          --json               one JSON object: {"box": "answering" | "not_answering" |
                               "not_running", "last_heard": <unix s>, "status": {...}}
        \(SurfaceOptions.help)

        Exit status: 0 the box answers, 3 the box is not answering (its status is too old),
        4 the box is not running, 2 the status file is unreadable, 64 usage.
        """

    enum Exit {
        static let answering: Int32 = 0
        static let notAnswering: Int32 = 3
        static let notRunning: Int32 = 4
    }

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        let options: SurfaceOptions
        let json: Bool
        do {
            options = try SurfaceOptions.take(from: &a)
            json = a.flag("--json")
            _ = try a.finish(maxPositionals: 0)
        } catch {
            Console.error("anchor-alert status: \(error)")
            return ExitCode.usage
        }
        let now = WallTime.now()
        let reading = SnapshotReading.read(directory: options.runtimeDirectory, now: now)
        if json {
            Console.out(jsonAnswer(reading).text)
        } else {
            for line in lines(reading, now: now, directory: options.runtimeDirectory) { Console.out(line) }
        }
        switch reading {
        case .current: return Exit.answering
        case .stale: return Exit.notAnswering
        case .stopped, .missing: return Exit.notRunning
        case .unreadable(let why):
            if json { Console.error(why) }
            return ExitCode.unreadable
        }
    }

    static func jsonAnswer(_ r: SnapshotReading) -> JSON {
        switch r {
        case .current(let s): .object([("box", .string("answering")), ("last_heard", .number(s.writtenAt.seconds)), ("status", s.json)])
        case .stale(let t): .object([("box", .string("not_answering")), ("last_heard", .number(t.seconds)), ("status", .null)])
        case .stopped(let t): .object([("box", .string("not_running")), ("last_heard", .number(t.seconds)), ("status", .null)])
        case .missing: .object([("box", .string("not_running")), ("last_heard", .null), ("status", .null)])
        case .unreadable: .object([("box", .string("unreadable")), ("last_heard", .null), ("status", .null)])
        }
    }

    static func lines(_ r: SnapshotReading, now: WallTime, directory: String) -> [String] {
        switch r {
        case .current(let s): return current(s, now: now)
        case .stale(let t): return ["Box not answering: last heard from at \(t.clockSeconds), \(WallTime.ago(now - t))"]
        case .stopped(let t): return ["Box not running: it stopped after \(t.clockSeconds), \(WallTime.ago(now - t))"]
        case .missing: return ["Box not running: no status in \(directory)"]
        case .unreadable(let why): return ["Box status unreadable: \(why)"]
        }
    }

    /// The box's words as it wrote them. The one thing redone here is a snooze's countdown,
    /// from the end time the box wrote: the words are the box's (Words), the clock the reader's.
    static func current(_ s: StatusSnapshot, now: WallTime) -> [String] {
        var out: [String] = []
        // Nothing can sound the alarm: the worst state an armed box can be in, said first.
        if !s.canSound { out.append(s.wontRing) }
        var position = s.position.says
        if let p = s.position.progress, s.position.verdict == .checking { position += " \(Int((p * 100).rounded()))%" }
        if let why = s.position.cantJudgeSays { position += ": \(why)" }
        // Checking or Dragging with the boat back inside: the evidence beyond the radius decays
        // over minutes, and the verdict must be explainable from the distance shown below it.
        if s.position.verdict == .checking || s.position.verdict == .dragging, let d = s.distance, d <= s.radius {
            position += ": \(backInside)"
        }
        out.append(position)
        var alarm = s.alarm.says
        var wontRing = s.wontRing
        if s.alarm.state == .snoozed, let until = s.alarm.snoozedUntil, let episode = s.alarm.episode {
            let left = Instant.zero + (until - now)
            alarm = Words.alarm(.snoozed(until: left, episode: episode), now: .zero)
            wontRing = Words.wontRing(verdict: .holding, alarm: .snoozed(until: left, episode: episode), now: .zero)
        }
        out.append(alarm)
        if s.canSound { out.append(wontRing) }
        if let d = s.distance {
            var line = "Distance to anchor: \(d)"
            if let anchor = s.anchor, let boat = s.glance.boat, d.value >= 1 {
                line += ", bearing \(degrees(Geodesy.bearing(from: boat, to: anchor))) from the boat"
            }
            out.append(line + ", alert radius \(s.radius)")
        } else {
            out.append("Alert radius: \(s.radius)")
        }
        if let far = s.glance.farthest { out.append("Farthest from the anchor since the mark: \(far)") }
        if let at = s.gps.readingAt {
            // Its age now, as this is read: the box follows every reading while it matters.
            var gps = "GPS reading: \(Int(max(0, (now - at).seconds).rounded())) s old"
            gps += s.gps.accuracy.map { ", accuracy \($0)" } ?? ", the receiver reports no accuracy"
            out.append(gps)
        } else {
            out.append("GPS reading: none yet")
        }
        if let boat = s.glance.boat { out.append("Boat: \(ChartPosition.text(boat))") }
        if let anchor = s.anchor { out.append("Anchor: \(anchor) (\(ChartPosition.text(anchor)))") }
        if let rings = s.ringDistance { out.append(rings) }
        out += swing(s)
        // One number, one reason: where the swing's suggestion is shown it is the advice's number
        // too (`Watch.reliableRadius`), and its line gives the wander as its second reason.
        if let advice = s.radiusAdvice, swingRadius(s) == nil { out.append(advice) }
        // A fault that sounds says so in the words of its snooze's receipt ("Fault sound snoozed").
        for f in s.faults { out.append(s.faultWords(f, now: now) + (s.faultSounding && s.canSound && f.pushes ? " (fault sound on: anchor-alert snooze silences it)" : "")) }
        out.append("As of \(s.writtenAt.clockSeconds)")
        return out
    }

    /// The alert radius the swing suggests, where its line is shown: a swing about a mark, and a
    /// radius at least 2 m from the one set.
    static func swingRadius(_ s: StatusSnapshot) -> Meters? {
        guard s.anchor != nil, s.glance.swing != nil, let r = s.glance.suggestedRadius,
            abs(r.value - s.radius.value) >= 2 else { return nil }
        return r
    }

    static let backInside = "the boat is back inside the alert radius, the readings beyond it still count"

    /// Three-digit degrees, as a compass reads them: "047°".
    static func degrees(_ bearing: Double) -> String {
        let d = Int(bearing.rounded()) % 360
        return (d < 10 ? "00" : d < 100 ? "0" : "") + "\(d)°"
    }

    /// The anchor as the swing shows it, and what to do about it.
    static func swing(_ s: StatusSnapshot) -> [String] {
        guard let anchor = s.anchor, let swing = s.glance.swing else { return [] }
        var out: [String] = []
        if let offer = s.glance.offer {
            out.append("\(offer.says). To move the mark there: anchor-alert mark --from-swing")
        } else if swing.steady && swing.moving {
            out.append("Swing: its centre is moving, the anchor may be dragging. The mark stays where it is")
        } else if swing.steady {
            // Only once the estimate has stayed settled a while (`SwingEstimate.steady`): one
            // lucky fit never says where the anchor may lie.
            let d = Geodesy.distance(anchor, swing.centre)
            if d.value <= max(10, 2 * swing.uncertainty.value) {
                out.append("Swing: its centre agrees with the mark, give or take \(swing.uncertainty)")
            } else {
                let way = Compass.point(Geodesy.bearing(from: anchor, to: swing.centre))
                out.append("Swing: the anchor may lie \(d) \(way) of the mark, waiting for the swing to confirm it")
            }
        } else if swing.arc > 0 {
            out.append("Swing: learning where the anchor is, \(Int(swing.arc)) degrees of arc seen so far")
        } else {
            // No plausible circle yet (tighter than any rode gives: a mooring, a dock, the
            // receiver's own wander): its arc is no swing, and no number of degrees is said.
            // Once a swing was seen its degrees stay (`SwingEstimate.arcSeen`).
            out.append("Swing: learning where the anchor is, no swing seen yet")
        }
        if let r = swingRadius(s) {
            let after = s.glance.offer != nil ? " once the mark is moved" : ""
            var reason = "holds the swing seen"
            if s.radiusAdvice != nil, let w = s.wander { reason += " and the GPS's wander of about \(Int(w.value.rounded())) m" }
            out.append("Alert radius from the swing: \(r) \(reason)\(after). To use it: anchor-alert radius \(Int(r.value))")
        }
        return out
    }
}
