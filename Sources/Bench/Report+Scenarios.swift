/// The receiver-condition, restart and target tables.
extension Report {
    func delayCell(_ t: DetectionBench.DragTally) -> String {
        let p = Percentiles(t.delays)
        var s = "\(Format.optional(p.median)) / \(Format.optional(p.worst))"
        if t.missed > 0 { s += ", \(t.missed) missed" }
        if t.early > 0 { s += ", \(t.early) early" }
        return s
    }

    /// False alarms per condition and receiver: rang / nights.
    func conditionFalseTable() -> String {
        let columns = plan.conditions.flatMap { c in plan.conditionCells.map { (c, $0.profile, $0.margin) } }
        let header = ["Rule"] + columns.map { "\($0.0.rawValue), \($0.1.label) \(Format.fixed($0.2)) m" }
        let rows = names.indices.map { c in
            [names[c]] + columns.map { col in
                let t = bench.nights[.init(contender: c, profile: col.1, knots: nil, condition: col.0)] ?? .init()
                return "\(t.alarmed)/\(t.nights)"
            }
        }
        return Format.table(header, rows)
    }

    /// Drag delays (median / worst s after the true exit) under one condition.
    func conditionDragTable(_ condition: Scenario.Condition) -> String {
        let columns = plan.conditionCells.flatMap { cell in plan.conditionSpeeds.map { (cell.profile, cell.margin, $0) } }
        let header = ["Rule"] + columns.map { "\($0.0.label) \(Format.fixed($0.1)) m, \(Format.fixed($0.2, 1)) kn: med / worst s" }
        var rows = names.indices.map { c in
            [names[c]] + columns.map { delayCell(bench.drags[.init(contender: c, profile: $0.0, knots: $0.2, condition: condition)] ?? .init()) }
        }
        rows.append(["Lower bound: beyond radius by 2x noise"] + columns.map {
            let p = Percentiles(bench.bounds[.init(contender: -1, profile: $0.0, knots: $0.2, condition: condition)] ?? [])
            return "\(Format.optional(p.median)) / \(Format.optional(p.worst))"
        })
        return Format.table(header, rows)
    }

    /// Readings too sparse to judge: the GPS fault (the box's only; the peers have none) and
    /// the drag alarms rung on those nights.
    func sparseTable() -> String {
        let header = ["Rule"] + plan.conditionCells.flatMap { cell in
            ["\(cell.profile.label) \(Format.fixed(cell.margin)) m: GPS fault raised", "fault after: med / worst s", "drag alarms"]
        }
        let rows = names.indices.map { c in
            [names[c]] + plan.conditionCells.flatMap { cell -> [String] in
                let t = bench.nights[.init(contender: c, profile: cell.profile, knots: nil, condition: .sparse)] ?? .init()
                let p = Percentiles(t.faultTimes)
                let isBox = bench.contenders[c].isBox
                return [isBox ? "\(t.faulted)/\(t.nights)" : "no such fault",
                        isBox ? "\(Format.optional(p.median)) / \(Format.optional(p.worst))" : "-",
                        "\(t.alarmed)/\(t.nights)"]
            }
        }
        return Format.table(header, rows)
    }

    func restartTable() -> String {
        let variants: [(Bool, Double)] = [(true, 0), (true, 0.5), (false, 0), (false, 0.5)]
        let columns = plan.conditionCells.flatMap { cell in variants.map { (cell.profile, $0.0, $0.1) } }
        let header = ["Rule"] + columns.map {
            "\($0.0.label), \($0.1 ? "latched" : "armed"), \(Format.fixed($0.2, 1)) kn: " + ($0.1 ? "stopped ringing; said Holding" : "ring after 1st fix med / worst s; said Holding")
        }
        let rows = names.indices.map { c in
            [names[c]] + columns.map { col -> String in
                let t = bench.restarts[.init(contender: c, profile: col.0, latched: col.1, knots: col.2)] ?? .init()
                let isBox = bench.contenders[c].isBox
                if col.1 {
                    return isBox ? "\(t.stopped)/\(t.runs); \(t.holdingLies)/\(t.runs)" : "no journal"
                }
                let p = Percentiles(t.delays)
                return "\(Format.optional(p.median)) / \(Format.optional(p.worst))" + (t.missed > 0 ? ", \(t.missed) missed" : "")
                    + (isBox ? "; \(t.holdingLies)/\(t.runs)" : "")
            }
        }
        return Format.table(header, rows)
    }

    /// The issue's drag targets for one contender: median within 1.5 x the lower bound's median,
    /// worst within 2 x the lower bound's worst, per receiver and speed.
    func targetTable(contender c: Int) -> String {
        let header = ["Receiver, speed", "box med / worst s", "lower bound med / worst s", "median <= 1.5 x bound", "worst <= 2 x bound"]
        var rows: [[String]] = []
        for cell in plan.cells where (plan.dragsPerSpeed[cell.profile] ?? 0) > 0 {
            for knots in plan.speeds {
                let d = Percentiles(bench.drags[.init(contender: c, profile: cell.profile, knots: knots)]?.delays ?? [])
                let b = Percentiles(bench.bounds[.init(contender: -1, profile: cell.profile, knots: knots)] ?? [])
                let missed = bench.drags[.init(contender: c, profile: cell.profile, knots: knots)]?.missed ?? 0
                func verdict(_ x: Double?, _ bound: Double?, _ k: Double) -> String {
                    guard let x, let bound else { return "-" }
                    return (x <= k * bound && missed == 0 ? "met" : "not met") + " (\(Format.fixed(x / max(bound, 1), 1)) x)"
                }
                rows.append(["\(cellLabel(cell.profile, cell.margin)), \(Format.fixed(knots, 1)) kn",
                             "\(Format.optional(d.median)) / \(Format.optional(d.worst))" + (missed > 0 ? ", \(missed) missed" : ""),
                             "\(Format.optional(b.median)) / \(Format.optional(b.worst))",
                             verdict(d.median, b.median, 1.5), verdict(d.worst, b.worst, 2)])
            }
        }
        return Format.table(header, rows)
    }
}
