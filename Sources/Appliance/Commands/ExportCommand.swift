import Posix
import WatchCore

/// `anchor-alert export`: the track of a watch as GPX 1.1, or as an SVG picture of the night.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "Export a watch's track as GPX, or a picture of the night as SVG"
    static let help = """
        Usage: anchor-alert export [--gpx | --svg] [--from TIME --to TIME | --last-watch]
                                  [-o FILE] [options]

          --gpx                GPX 1.1 (the default): the anchor and each alarm as waypoints,
                               the track as a track. Opens in OpenCPN and chart plotters.
          --svg                a picture: the anchor, the alert circle, the track, where the
                               alarm rang, a scale bar and north
          (neither)            the night: from the first arming of the night (the switch
                               slid off and on again, less than 3 hours apart and with no
                               release between, is the same night) until the switch went off
                               (or until now)
          --last-watch         only the last watch: from the last time the switch went to
                               ARM until it went off (or until now)
          --from TIME --to TIME   a stretch of the log instead (03:10, "2026-11-30 22:00",
                               ISO 8601 UTC, a duration back from now, or now); a clock
                               time for --to is the first such time after --from
          -o FILE              write to FILE instead of standard output
        \(SurfaceOptions.historyHelp)
          --config FILE        configuration file

        Exit status: 0 written, 1 nothing to export or the log can't be read, 64 usage.
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        let options: SurfaceOptions
        let svg: Bool
        let output: String?
        var range = NightTrack.Range.night
        let now = WallTime.now()
        do {
            options = try SurfaceOptions.take(from: &a)
            let gpxFlag = a.flag("--gpx")
            svg = a.flag("--svg")
            guard !(gpxFlag && svg) else { throw Arguments.UsageError(description: "give --gpx or --svg, not both") }
            let last = a.flag("--last-watch")
            let from = try a.option("--from")
            let to = try a.option("--to")
            output = try a.option("-o")
            _ = try a.finish(maxPositionals: 0)
            switch (from, to) {
            case (nil, nil): if last { range = .lastWatch }
            case (let f?, let t?):
                guard !last else { throw Arguments.UsageError(description: "give --last-watch or --from and --to, not both") }
                guard let ft = WallTime.parse(f, now: now), let tt = WallTime.parse(t, now: now, after: ft) else {
                    throw Arguments.UsageError(description: "--from and --to need times like 03:10 or durations like 8h")
                }
                range = .between(ft, tt)
            default:
                throw Arguments.UsageError(description: "--from and --to go together")
            }
        } catch {
            Console.error("anchor-alert export: \(error)")
            return ExitCode.usage
        }
        let text: String
        do {
            let night = try NightTrack.build(try options.history().entries(), range: range, now: now)
            text = svg ? SVGWriter.svg(night) : GPXWriter.gpx(night)
        } catch {
            Console.error("\(error)")
            return ExitCode.failure
        }
        guard let output else {
            var out = OutputBuffer()
            out.line(String(text.dropLast()))
            out.flush()
            return ExitCode.ok
        }
        do {
            try FileDescriptor.open(output, [.writeOnly, .create, .truncate]).writeAll(text.utf8, call: "write \(output)")
        } catch {
            Console.error("Export: can't write \(output): \(error)")
            return ExitCode.failure
        }
        return ExitCode.ok
    }
}
