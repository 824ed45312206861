/// Turns the benchmark's tallies into the printed tables and the SVG plots.
struct Report {
    let bench: DetectionBench
    let plan: DetectionBench.Plan
    let negatives: [RealCaptures.Negative]
    let positive: RealCaptures.Positive?

    static let colours = ["#2b6cb0", "#c05621", "#38a169", "#805ad5", "#d69e2e"]

    var names: [String] { bench.contenders.map(\.name) }

    func cellLabel(_ profile: ReceiverProfile, _ margin: Double) -> String { "\(profile.label), \(Format.fixed(margin)) m" }

    func falseAlarmTable() -> String {
        let header = ["Rule"] + plan.cells.map { cellLabel($0.profile, $0.margin) }
        let rows = names.indices.map { c in
            [names[c]] + plan.cells.map { cell in
                let t = bench.nights[.init(contender: c, profile: cell.profile, knots: nil)] ?? .init()
                return "\(Format.fixed(t.perThousand)) (\(t.alarmed)/\(t.nights))"
            }
        }
        return Format.table(header, rows)
    }

    func dragTable(_ profile: ReceiverProfile) -> String {
        let header = ["Rule"] + plan.speeds.map { "\(Format.fixed($0, 1)) kn: s med / p95 / worst; m past (worst)" }
        func cell(_ t: DetectionBench.DragTally) -> String {
            let p = Percentiles(t.delays), m = Percentiles(t.past)
            var s = "\(Format.optional(p.median)) / \(Format.optional(p.p95)) / \(Format.optional(p.worst)); \(Format.optional(m.worst)) m"
            if t.missed > 0 { s += ", \(t.missed) missed" }
            if t.early > 0 { s += ", \(t.early) early" }
            return s
        }
        var rows = names.indices.map { c in
            [names[c]] + plan.speeds.map { cell(bench.drags[.init(contender: c, profile: profile, knots: $0)] ?? .init()) }
        }
        rows.append(["Lower bound: beyond radius by 2x noise"] + plan.speeds.map {
            let p = Percentiles(bench.bounds[.init(contender: -1, profile: profile, knots: $0)] ?? [])
            return "\(Format.optional(p.median)) / \(Format.optional(p.p95)) / \(Format.optional(p.worst))"
        })
        return Format.table(header, rows)
    }

    func realTable() -> String {
        let header = ["Rule", "stationary captures that rang (10 m radius)", "leaving berth: alarm after exit (s)"]
        let rows = names.indices.map { c -> [String] in
            let rang = negatives.filter { $0.rang.contains(c) }
            var list = rang.prefix(4).map { String($0.name.split(separator: "/").last ?? "") }.joined(separator: ", ")
            if rang.count > 4 { list += ", ..." }
            let pos: String
            if let p = positive, let exit = p.exitT {
                pos = p.alarms[c].map { Format.fixed($0 - exit) } ?? "never"
            } else { pos = "-" }
            return [names[c], "\(rang.count) of \(negatives.count)" + (list.isEmpty ? "" : ": " + list), pos]
        }
        return Format.table(header, rows)
    }

    func noiseLine() -> String {
        plan.cells.map { cell in
            let n = bench.noise[cell.profile] ?? []
            let mean = n.isEmpty ? 0 : n.reduce(0, +) / Double(n.count)
            return "\(cell.profile.label): noise RMS \(Format.fixed(mean, 1)) m"
        }.joined(separator: "; ")
    }

    func falseAlarmChart() -> SVGChart {
        SVGChart(
            title: "False alarms per 1,000 nights (8 h, simulated swing, real GPS noise)",
            axis: "false alarms per 1,000 nights", rows: names,
            series: plan.cells.enumerated().map { i, cell in
                SVGChart.Series(name: cellLabel(cell.profile, cell.margin), colour: Report.colours[i % Report.colours.count],
                                values: names.indices.map { bench.nights[.init(contender: $0, profile: cell.profile, knots: nil)]?.perThousand })
            },
            note: "margin: alert radius minus swing circle; \(noiseLine())")
    }

    func dragChart(knots: Double) -> SVGChart {
        SVGChart(
            title: "Alarm delay after the true exit, \(Format.fixed(knots, 1)) kn drag",
            axis: "seconds after the true position left the alert circle", rows: names + ["Lower bound (2x noise)"],
            series: plan.cells.enumerated().filter { (plan.dragsPerSpeed[$0.element.profile] ?? 0) > 0 }.map { i, cell in
                func stats(_ c: Int) -> Percentiles {
                    Percentiles(c < names.count ? bench.drags[.init(contender: c, profile: cell.profile, knots: knots)]?.delays ?? []
                                                : bench.bounds[.init(contender: -1, profile: cell.profile, knots: knots)] ?? [])
                }
                let all = (0...names.count).map(stats)
                return SVGChart.Series(name: cellLabel(cell.profile, cell.margin), colour: Report.colours[i % Report.colours.count],
                                       values: all.map { $0.median.map { max($0, 0) } }, ticks: all.map { $0.p95.map { max($0, 0) } },
                                       dots: all.map { $0.worst.map { max($0, 0) } })
            },
            note: "negative delays (rang before the true exit, after the break-out) drawn at 0")
    }

    func speedChart(_ profile: ReceiverProfile) -> SVGChart {
        SVGChart(
            title: "Alarm delay by drag speed, \(profile.label) receiver",
            axis: "seconds after the true position left the alert circle", rows: names,
            series: plan.speeds.enumerated().map { i, knots in
                let all = names.indices.map { Percentiles(bench.drags[.init(contender: $0, profile: profile, knots: knots)]?.delays ?? []) }
                return SVGChart.Series(name: "\(Format.fixed(knots, 1)) kn", colour: Report.colours[i % Report.colours.count],
                                       values: all.map { $0.median.map { max($0, 0) } }, ticks: all.map { $0.p95.map { max($0, 0) } },
                                       dots: all.map { $0.worst.map { max($0, 0) } })
            },
            note: "each bar: median; tick: 95th percentile; ring: worst")
    }
}
