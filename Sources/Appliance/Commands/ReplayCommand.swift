import Posix
import Recordings
import WatchCore

/// `anchor-alert replay FILE`: a recorded log through the real watch core at full speed, one
/// JSON object per line. Benchmarks and outside checks drive the box through this: its output
/// is a contract (Docs/commands.md#replay).
enum ReplayCommand: Command {
    static let name = "replay"
    static let summary = "Replay a recorded GPS log through the watch, one JSON line per change"
    static let help = """
        Usage: anchor-alert replay FILE [--radius METERS] [--anchor LAT,LON | --mark-after SECONDS] [--arm]
                                        [--config FILE]

        Feeds an NMEA 0183 log (GGA, RMC, GLL, GSA; any talker; checksums verified) or a gpsd
        JSON log (TPV lines) through the watch at full speed, with the file's own timestamps.

          --radius METERS       alert radius (default: the configuration's, 30)
          --anchor LAT,LON      mark the anchor there at the first fix
          --mark-after SECONDS  mark as soon as the box would accept a mark at or after SECONDS
          --arm                 arm right after marking
          --config FILE         take the watch's settings from this configuration file

        Prints one JSON object per line for every verdict change, alarm change, fault and
        refusal, then a summary line:
          {"t":12.0,"event":"verdict","position":"holding","alarm":"armed","distance_m":4.2}
          {"event":"summary","fixes":900,"marked_t":60.0,"alarms":1,"first_alarm_t":512.0}

        Exit status: 0 replayed, 2 the file is unreadable or holds no GPS reports, 64 usage.
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        var options = Replay.Options()
        let file: String
        do {
            if let path = try a.option("--config") {
                let loaded = Configuration.load(path: path)
                for problem in loaded.problems { Console.error("anchor-alert: \(problem)") }
                options.settings = loaded.configuration.watchSettings
            }
            options.radius = try a.double("--radius").map { Meters($0) }
            if let text = try a.option("--anchor") {
                guard let c = parseCoordinate(text) else {
                    throw Arguments.UsageError(description: "--anchor needs LAT,LON in degrees, not \"\(text)\"")
                }
                options.anchor = c
            }
            options.markAfter = try a.double("--mark-after")
            options.arm = a.flag("--arm")
            let rest = try a.finish(maxPositionals: 1)
            guard let f = rest.first else { throw Arguments.UsageError(description: "replay needs a FILE") }
            guard options.anchor == nil || options.markAfter == nil else {
                throw Arguments.UsageError(description: "give --anchor or --mark-after, not both")
            }
            if let r = options.radius, !options.settings.radiusRange.contains(r.value) {
                throw Arguments.UsageError(description: Words.refusal(.radiusOutOfRange, settings: options.settings))
            }
            file = f
        } catch {
            Console.error("anchor-alert replay: \(error)")
            return ExitCode.usage
        }

        let log: RecordedLog
        do {
            log = try LogReader.read(bytes: try Files.read(file))
        } catch {
            Console.error("anchor-alert replay: can't read \(file): \(error)")
            return ExitCode.unreadable
        }
        let replay = Replay.run(log.readings, options: options)
        var out = OutputBuffer()
        for record in replay.records { out.line(ReplayJSON.line(record)) }
        out.line(ReplayJSON.summary(replay.summary))
        out.flush()
        return ExitCode.ok
    }

    static func parseCoordinate(_ text: String) -> Coordinate? {
        let parts = text.split(separator: ",")
        guard parts.count == 2, let lat = Double(parts[0].filter { $0 != " " }),
            let lon = Double(parts[1].filter { $0 != " " })
        else { return nil }
        return Coordinate.validated(latitude: lat, longitude: lon)
    }
}

/// The replay JSON lines, one place, so the format stays the documented one.
enum ReplayJSON {
    static func line(_ r: Replay.Record) -> String {
        var members: [(String, JSONValue)] = [
            ("t", .number(rounded(r.t, 3))),
            ("event", .string(r.kind.rawValue)),
            ("position", .string(r.verdict.kind.rawValue)),
            ("alarm", .string(r.alarm.kind.rawValue)),
            ("distance_m", r.distance.map { .number(rounded($0.value, 1)) } ?? .null),
        ]
        if case .checking(let p) = r.verdict { members.append(("progress", .number(rounded(p, 2)))) }
        if case .cantJudge(let why) = r.verdict { members.append(("reason", .string(why.rawValue))) }
        if let e = r.alarm.episode { members.append(("episode", .number(Double(e)))) }
        if let code = r.code { members.append(("code", .string(code))) }
        if let detail = r.detail { members.append(("message", .string(detail))) }
        return JSONValue.object(members).text
    }

    static func summary(_ s: Replay.Summary) -> String {
        JSONValue.object([
            ("event", .string("summary")),
            ("fixes", .number(Double(s.fixes))),
            ("marked_t", s.markedT.map { .number(rounded($0, 3)) } ?? .null),
            ("alarms", .number(Double(s.alarms))),
            ("first_alarm_t", s.firstAlarmT.map { .number(rounded($0, 3)) } ?? .null),
        ]).text
    }

    static func rounded(_ x: Double, _ digits: Int) -> Double {
        var k = 1.0
        for _ in 0..<digits { k *= 10 }
        return (x * k).rounded() / k
    }
}
