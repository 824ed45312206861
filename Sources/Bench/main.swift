import Posix
import WatchCore

func monotonicSeconds() -> Double { MonotonicClock.now().seconds }

/// Progress and refusals go to standard error, the tables to standard output.
func printError(_ message: String) {
    try? FileDescriptor.standardError.writeAll((message + "\n").utf8)
}

func fail(_ message: String) -> Never {
    printError("anchor-bench: \(message)")
    Process.exit(2)
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
if let cell = Process.environment("ANCHOR_MUTANT_PROBE") {
    MutantProbe.run(cell, sources: library.sources)
    Process.exit(0)
}
if let n = Process.environment("ANCHOR_PROBE").flatMap({ Int($0) }) {
    if let k = Process.environment("ANCHOR_PROBE_KNOTS").flatMap({ Double($0) }) {
        Probes.majority(sources: library.sources, drags: n, knots: k, settings: BoxTuning.defaults)
    } else if let tr = Process.environment("ANCHOR_PROBE_TRACE").map({ $0.split(separator: ",").compactMap { Int($0) } }) {
        let cond: [Scenario.Condition] = [.dropouts, .accuracyBursts, .twoD]
        guard tr.count == 2, cond.indices.contains(tr[0]), tr[1] >= 0 else { fail("ANCHOR_PROBE_TRACE is CONDITION,NIGHT: 0 dropouts, 1 accuracy bursts, 2 2D stretches") }
        Probes.trace(sources: library.sources, condition: cond[tr[0]], ci: UInt64(tr[0]), night: tr[1], settings: BoxTuning.defaults)
    } else {
        Probes.run(sources: library.sources, nights: n, settings: BoxTuning.defaults)
    }
    Process.exit(0)
}

switch options.mode {
case .costDriver(let fixes):
    let r = CostDriver.run(fixes: fixes, sources: library.sources)
    print("cost driver: \(fixes) fixes, \(r.actions) actions; the swing estimate \(r.cells) cells")

case .holdingLog(let path, let seconds, let dragging):
    do { try HoldingLog.write(path: path, seconds: seconds, sources: library.sources, dragging: dragging) } catch {
        fail("can't write \(path): \(error)")
    }
    print("\(dragging ? "dragging" : "holding") log: \(seconds * 10) fixes at 10 Hz in \(path)")

case .explore(let nights):
    let sets = Exploration.sets(sources: library.sources, nights: nights, drags: max(nights / 4, 10))
    printError("  scenarios ready (\(Format.fixed(monotonicSeconds() - started)) s)")
    var results: [Exploration.Result] = []
    for rule in Exploration.grid() {
        results.append(Exploration.evaluate(rule, sets))
        if results.count % 50 == 0 { printError("  \(results.count) rules (\(Format.fixed(monotonicSeconds() - started)) s)") }
    }
    print(Exploration.table(results, sets))

case .check:
    guard let contender = Contender.named(options.rule) else { fail("no rule named \(options.rule)") }
    print("Regression check: \(contender.name), fixed seeds; every run must pass.")
    let result = RegressionCheck.run(contender, sources: library.sources, failFast: options.failFast) { print($0) }
    let seconds = Format.fixed(monotonicSeconds() - started)
    if result.failures > 0 {
        print("check: FAIL: \(result.failures) of \(result.runs) runs failed (\(contender.name), \(seconds) s)")
        Process.exit(1)
    }
    let partial = result.leftOut > 0 ? "; \(result.leftOut) cases left out (ANCHOR_CHECK_WITHOUT), not the whole check" : ""
    print("check: PASS: \(result.runs) runs, no false alarm, no missed drag (\(contender.name), \(seconds) s)\(partial)")

case .receivers(let seeds):
    guard let contender = Contender.named(options.rule) else { fail("no rule named \(options.rule)") }
    let drags = options.dragsGiven ? options.drags : 0, nights = options.nightsGiven ? options.nights : 100
    print("Receivers whose speed moves with their position: \(contender.name), \(seeds == 7 ? "tuning" : "held-out") seeds, nights \(options.first) to \(options.first + nights - 1), \(drags) drags per speed.\n")
    print(ReceiverBench.run(contender, cells: ReceiverBench.cells(options.models) ?? [], sources: library.sources, seeds: seeds, nights: nights, first: options.first, drags: drags) { line in
        printError("  \(line) (\(Format.fixed(monotonicSeconds() - started)) s)")
    })

case .swingSettle(let seeds):
    let result = SwingSettleBench.run(seeds: seeds)
    print(result.text, terminator: "")
    if result.wrongOffers > 0 { Process.exit(1) }

case .anchorEstimate:
    let nights = options.quick ? 3 : 100, drags = options.quick ? 2 : 40
    print(AnchorEstimateBench.run(sources: library.sources, nights: nights, drags: drags) { line in
        printError("  \(line) (\(Format.fixed(monotonicSeconds() - started)) s)")
    })

case .tune:
    let env = { (name: String) in Process.environment(name).flatMap { Int($0) } }
    let nights = env("ANCHOR_TUNE_NIGHTS") ?? (options.quick ? 4 : 400)
    let drags = env("ANCHOR_TUNE_DRAGS") ?? (options.quick ? 4 : 100)
    // ANCHOR_TUNE_HALF=0 or 1: only the even or the odd captures lend their noise (tune on one
    // half, measure on the other).
    var sources = library.sources
    if let half = env("ANCHOR_TUNE_HALF") {
        sources = sources.enumerated().filter { $0.offset % 2 == half }.map(\.element)
        printError("  noise from \(sources.map(\.name).joined(separator: ", "))")
    }
    let rows = Tuning.run(sources: sources, nights: nights, drags: drags, rate: 1, grid: Process.environment("ANCHOR_TUNE_GRID") != nil ? Tuning.grid() : BoxTuning.candidates())
    let table = rows.map { r -> [String] in
        let g = Percentiles(r.delaysGood), p = Percentiles(r.delaysPoor)
        return [r.label, "\(r.falseGood)", "\(r.falsePoor)", "\(r.falsePoorGoodEph)",
                "\(Format.optional(g.median)) / \(Format.optional(g.p95)) / \(Format.optional(g.worst))",
                "\(Format.optional(p.median)) / \(Format.optional(p.p95)) / \(Format.optional(p.worst))"]
    }
    print("Replayed through the watch core: \(nights) nights per receiver, \(drags) 0.5 kn drags per receiver.\n")
    print(Format.table(["settings (BoxTuning.candidates)", "false, good 10 m",
                        "false, poor 20 m", "false, poor with good eph, 20 m", "0.5 kn good: med / p95 / worst s",
                        "0.5 kn poor: med / p95 / worst s"], table))

case .detection:
    let contenders = [Contender.box("Box (defaults)", BoxTuning.defaults)] + Contender.peers
    let quick = options.quick
    let part = options.part
    let main = part == .all || part == .main || part == .mainGood || part == .mainPoor
    let conditions = part == .all || part == .conditions
    let real = main && part != .mainPoor
    let held = part == .all || part == .heldOut
    let n = quick ? 4 : options.nights
    var plan = DetectionBench.Plan(
        cells: !main ? [] : part == .mainGood ? [(.good(1), 10), (.good(10), 10)]
            : part == .mainPoor ? [(.poor(1), 20), (.poorGoodEph(1), 20), (.poor(10), 20)]
            : [(.good(1), 10), (.poor(1), 20), (.poorGoodEph(1), 20), (.good(10), 10), (.poor(10), 20)],
        nights: [.good(1): n, .poor(1): n, .poorGoodEph(1): quick ? 2 : min(n, 200),
                 .good(10): quick ? 1 : max(2, n / 50), .poor(10): quick ? 1 : max(2, n / 50)],
        dragsPerSpeed: [.good(1): quick ? 3 : options.drags, .poor(1): quick ? 3 : options.drags,
                        .good(10): quick ? 1 : max(2, options.drags / 10), .poor(10): quick ? 1 : max(2, options.drags / 10)])
    if !conditions { plan.conditions = [] }
    plan.conditionNights = quick ? 1 : options.conditionNights
    plan.conditionDrags = quick ? 1 : options.conditionDrags
    plan.restarts = conditions ? (quick ? 1 : 20) : 0
    var bench = DetectionBench(contenders: contenders, sources: library.sources)
    bench.run(plan) { line in
        printError("  \(line) (\(Format.fixed(monotonicSeconds() - started)) s)")
    }
    let candidates = BoxTuning.candidates().prefix(quick ? 2 : Int.max).map { (label: $0.label, contender: Contender.box($0.label, $0.settings)) }
    var heldOut = HeldOut(sources: library.sources, candidates: Array(candidates), peers: Contender.peers)
    if held {
        heldOut.run(nights: quick ? 1 : options.heldOutNights, drags: quick ? 1 : options.heldOutDrags) { line in
            printError("  \(line) (\(Format.fixed(monotonicSeconds() - started)) s)")
        }
    }
    let negatives = real ? RealCaptures.negatives(library, contenders: contenders) : []
    let positive = real ? RealCaptures.positive(library, contenders: contenders) : nil
    let report = Report(bench: bench, plan: plan, negatives: negatives, positive: positive)

    if main {
        print("# Anchor watch detection benchmark\(quick ? " (quick)" : "")\n")
        print("Noise: \(library.sources.count) real stationary captures; \(report.noiseLine()).\n")
        print("## False alarms per 1,000 nights (margin = alert radius minus swing circle)\n")
        print(report.falseAlarmTable())
        for cell in plan.cells where (plan.dragsPerSpeed[cell.profile] ?? 0) > 0 {
            print("## Drags, \(cell.profile.label) receiver, \(Format.fixed(cell.margin)) m margin: alarm delay after the true exit\n")
            print(report.dragTable(cell.profile))
        }
        print("## The box against the issue's drag targets (median within 1.5 x the lower bound, worst within 2 x)\n")
        print(report.targetTable(contender: 0))
    }
    if real {
        print("## Real captures\n")
        if let p = positive {
            print("Leaving berth: radius \(Format.fixed(p.radius)) m around the first 5 minutes; track (10 s median) exits at \(Format.optional(p.exitT)) s.\n")
        }
        print(report.realTable())
    }
    if conditions {
        print("## Receiver conditions: false alarms (rang / nights, 8 h each)\n")
        print(report.conditionFalseTable())
        for condition in plan.conditions where condition != .sparse {
            print("## Drags under \(condition.rawValue): alarm delay after the true exit\n")
            print(report.conditionDragTable(condition))
        }
        print("## Readings too sparse to judge: the GPS fault\n")
        print(report.sparseTable())
        print("## Restarts 30 to 150 m outside the circle (box restored from its journal, no fix yet)\n")
        print(report.restartTable())
    }
    if held {
        print("## Held-out receivers: leave one capture out\n")
        if !heldOut.skipped.isEmpty { print("Skipped (no noise to borrow): \(heldOut.skipped.joined(separator: ", ")).\n") }
        print(heldOut.foldTable())
        print(heldOut.ruleTable())
    }
    if real, let dir = options.plots {
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
    print("Replayed \(bench.fixesReplayed + heldOut.fixesReplayed) simulated fixes through \(contenders.count) rules (\(part.rawValue)) in \(Format.fixed(monotonicSeconds() - started)) s.")
}
