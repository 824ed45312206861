import WatchCore
import Journal

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
        every 30 s; a status past its time is not shown: the box is not answering.

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
    /// from the end time the box wrote: the words are the box's (Copy), the clock the reader's.
    static func current(_ s: StatusSnapshot, now: WallTime) -> [String] {
        var out: [String] = []
        var position = s.position.says
        if let p = s.position.progress, s.position.verdict == .checking { position += " (\(Int((p * 100).rounded()))%)" }
        if let why = s.position.cantJudgeSays { position += ": \(why)" }
        out.append(position)
        var alarm = s.alarm.says
        var wontRing = s.wontRing
        if s.alarm.state == .snoozed, let until = s.alarm.snoozedUntil, let episode = s.alarm.episode {
            let left = Instant.zero + (until - now)
            alarm = Copy.alarm(.snoozed(until: left, episode: episode), now: .zero)
            wontRing = Copy.wontRing(verdict: .holding, alarm: .snoozed(until: left, episode: episode), now: .zero)
        }
        out.append(alarm)
        out.append(wontRing)
        if let d = s.distance {
            out.append("Distance to anchor: \(d), alert radius \(s.radius)")
        } else {
            out.append("Alert radius: \(s.radius)")
        }
        if let at = s.gps.readingAt {
            // As of the write, like every line above "As of": the box's last reading then.
            var gps = "GPS reading: \(Int(max(0, (s.writtenAt - at).seconds).rounded())) s old"
            if let acc = s.gps.accuracy { gps += ", accuracy \(acc)" }
            out.append(gps)
        } else {
            out.append("GPS reading: none yet")
        }
        if let anchor = s.anchor { out.append("Anchor: \(anchor)") }
        if let advice = s.radiusAdvice { out.append(advice) }
        for f in s.faults { out.append(f.message + (s.faultSounding && f.pushes ? " (sounding)" : "")) }
        out.append("As of \(s.writtenAt.clockSeconds)")
        return out
    }
}
