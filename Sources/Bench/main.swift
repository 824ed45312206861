#if canImport(Glibc)
import Glibc
#endif
import WatchCore

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Progress and refusals go to standard error, the tables to standard output.
func printError(_ message: String) {
    let bytes = Array((message + "\n").utf8)
    var done = 0
    while done < bytes.count {
        let n = bytes[done...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        if n < 0 { if errno == EINTR { continue } else { return } }
        done += n
    }
}

func fail(_ message: String) -> Never {
    printError("anchor-bench: \(message)")
    exit(2)
}

let options: BenchOptions
do {
    options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.description)
}

let library: NoiseLibrary
do {
    library = try NoiseLibrary(directory: options.data)
} catch {
    fail("can't read the GPS captures: \(error)")
}
guard !library.sources.isEmpty else { fail("no stationary capture in \(options.data)/PROVENANCE.md") }
let started = monotonicSeconds()

switch options.mode {
case .costDriver(let fixes):
    print("cost driver: \(fixes) fixes, \(CostDriver.run(fixes: fixes, sources: library.sources)) actions")

case .holdingLog(let path, let seconds):
    do { try HoldingLog.write(path: path, seconds: seconds, sources: library.sources) } catch { fail("can't write \(path): \(error)") }
    print("holding log: \(seconds * 10) fixes at 10 Hz in \(path)")

case .explore(let nights):
    let sets = Exploration.sets(sources: library.sources, nights: nights, drags: max(nights / 4, 10))
    printError("  scenarios ready (\(Format.fixed(monotonicSeconds() - started)) s)")
    var results: [Exploration.Result] = []
    for rule in Exploration.grid() {
        results.append(Exploration.evaluate(rule, sets))
        if results.count % 50 == 0 { printError("  \(results.count) rules (\(Format.fixed(monotonicSeconds() - started)) s)") }
    }
    print(Exploration.table(results, sets))

case .anchorEstimate:
    let nights = options.quick ? 3 : 100, drags = options.quick ? 2 : 40
    print(AnchorEstimateBench.run(sources: library.sources, nights: nights, drags: drags) { line in
        printError("  \(line) (\(Format.fixed(monotonicSeconds() - started)) s)")
    })

case .tune:
    let nights = options.quick ? 4 : 400, drags = options.quick ? 4 : 100
    let rows = Tuning.run(sources: library.sources, nights: nights, drags: drags, rate: 1, grid: Tuning.grid())
    let table = rows.map { r -> [String] in
        let g = Percentiles(r.delaysGood), p = Percentiles(r.delaysPoor)
        return [r.label, "\(r.falseGood)", "\(r.falsePoor)", "\(r.falsePoorGoodEph)",
                "\(Format.optional(g.median)) / \(Format.optional(g.p95)) / \(Format.optional(g.worst))",
                "\(Format.optional(p.median)) / \(Format.optional(p.p95)) / \(Format.optional(p.worst))"]
    }
    print("Replayed through the watch core: \(nights) nights per receiver, \(drags) 0.5 kn drags per receiver.\n")
    print(Format.table(["settings (window s, confirmation s, majority, accuracy weight, drift)", "false, good 10 m",
                        "false, poor 20 m", "false, poor with good eph, 20 m", "0.5 kn good: med / p95 / worst s",
                        "0.5 kn poor: med / p95 / worst s"], table))

case .detection:
    var previous = WatchSettings()
    previous.window = .seconds(10)
    previous.confirmation = .seconds(5)
    previous.majority = 0.8
    previous.accuracyWeight = 0.2
    previous.driftSpan = .zero
    let contenders = [Contender.box("Box (defaults)"), Contender.box("Box, previous defaults (accuracy weight)", previous)]
        + Contender.peers
    let quick = options.quick
    let plan = DetectionBench.Plan(
        cells: [(.good(1), 10), (.poor(1), 20), (.poorGoodEph(1), 20), (.good(10), 10), (.poor(10), 20)],
        nights: [.good(1): quick ? 4 : 400, .poor(1): quick ? 4 : 400, .poorGoodEph(1): quick ? 4 : 400,
                 .good(10): quick ? 1 : 100, .poor(10): quick ? 1 : 100],
        dragsPerSpeed: [.good(1): quick ? 3 : 100, .poor(1): quick ? 3 : 100, .good(10): quick ? 1 : 25, .poor(10): quick ? 1 : 25])
    var bench = DetectionBench(contenders: contenders, sources: library.sources)
    bench.run(plan) { line in
        printError("  \(line) (\(Format.fixed(monotonicSeconds() - started)) s)")
    }
    let negatives = RealCaptures.negatives(library, contenders: contenders)
    let positive = RealCaptures.positive(library, contenders: contenders)
    let report = Report(bench: bench, plan: plan, negatives: negatives, positive: positive)

    print("# Anchor watch detection benchmark\(quick ? " (quick)" : "")\n")
    print("Noise: \(library.sources.count) real stationary captures; \(report.noiseLine()).\n")
    print("## False alarms per 1,000 nights (margin = alert radius minus swing circle)\n")
    print(report.falseAlarmTable())
    for cell in plan.cells where (plan.dragsPerSpeed[cell.profile] ?? 0) > 0 {
        print("## Drags, \(cell.profile.label) receiver, \(Format.fixed(cell.margin)) m margin: alarm delay after the true exit\n")
        print(report.dragTable(cell.profile))
    }
    print("## Real captures\n")
    if let p = positive {
        print("Leaving berth: radius \(Format.fixed(p.radius)) m around the first 5 minutes; track (10 s median) exits at \(Format.optional(p.exitT)) s.\n")
    }
    print(report.realTable())
    if let dir = options.plots {
        BenchFile.makeDirectory(dir)
        let charts: [(String, SVGChart)] = [
            ("false-alarms.svg", report.falseAlarmChart()),
            ("drag-0.5kn.svg", report.dragChart(knots: 0.5)),
            ("drag-speeds-good-1hz.svg", report.speedChart(.good(1))),
            ("drag-speeds-poor-1hz.svg", report.speedChart(.poor(1))),
        ]
        for (name, chart) in charts {
            do { try BenchFile.write(dir + "/" + name, chart.render()) } catch { fail("can't write a plot: \(error)") }
        }
        print("Plots: \(charts.map { dir + "/" + $0.0 }.joined(separator: ", "))")
    }
    print("Replayed \(bench.fixesReplayed) simulated fixes through \(contenders.count) rules in \(Format.fixed(monotonicSeconds() - started)) s.")
}
