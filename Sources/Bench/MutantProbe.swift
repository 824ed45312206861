import Posix
import WatchCore

/// `ANCHOR_MUTANT_PROBE=CELL`: which quiet nights ring with a guard of the rule removed and not
/// with the shipped rule, the search behind the regression check's mutant cases
/// (`RegressionCheck.mutantNights`, Docs/benchmarks.md "The regression check in CI").
///
/// CELL is RECEIVER:MARGIN:CONDITION (`good:6:accuracy-bursts`, `filter-speed:20:plain`; the
/// receivers of `--receivers`, a `Scenario.Condition` with its spaces as dashes).
/// `ANCHOR_MUTANT_NIGHTS=N` (default 20) nights from `ANCHOR_MUTANT_FIRST=K` (default 0);
/// `ANCHOR_MUTANTS="vt=2,vm=0.05 off=speed-lags"` the mutants (`ANCHOR_BOX_SET`'s knobs, one
/// mutant a word; default the Doppler guards of issue 24 item 9). Each mutant runs with the
/// trust gate in place. A night's line says which mutants rang it, when, and whether the shipped
/// rule (and the rule with the Doppler off, `vm=10`) rang it too. `ANCHOR_MUTANT_TRACE=NIGHT`
/// prints that night's readings before the first mutant's ring (`RegressionCheck.trace`).
enum MutantProbe {
    static let dopplerGuards = ["vt=2,vm=0.05", "off=doppler-weak-or-burst", "vi=0", "vi=-1", "off=speed-lags"]

    struct Cell {
        var profile: ReceiverProfile
        var margin: Double
        var condition: Scenario.Condition
        var label: String
    }

    static func cell(_ text: String) -> Cell? {
        let p = text.split(separator: ":").map(String.init)
        guard p.count == 3, let margin = Double(p[1]), let c = ReceiverBench.cells([p[0]])?.first,
              let condition = Scenario.Condition.allCases.first(where: { $0.rawValue.replacingSpaces() == p[2] })
        else { return nil }
        return Cell(profile: c.profile, margin: margin, condition: condition, label: text)
    }

    /// Night `i` of a cell: its own seeds, apart from every other run's.
    static func night(_ cell: Cell, _ i: Int, sources: [NoiseCapture]) -> Scenario {
        let ci = UInt64(Scenario.Condition.allCases.firstIndex(of: cell.condition) ?? 0)
        return Scenario(kind: .night, profile: cell.profile, margin: cell.margin,
                        seed: DetectionBench.seed(93, cell.profile.seedTag, ci, UInt64(cell.margin * 10), UInt64(i)),
                        sources: cell.profile.model == nil ? sources : [], condition: cell.condition)
    }

    static func settings(_ mutant: String) -> WatchSettings {
        var s = WatchSettings()
        for named in mutant.split(separator: ",") where Tuning.apply(named, to: &s) == nil { fail("no knob \(named)") }
        return s
    }

    static func run(_ text: String, sources: [NoiseCapture]) {
        guard let cell = cell(text) else { fail("ANCHOR_MUTANT_PROBE is RECEIVER:MARGIN:CONDITION, e.g. good:6:accuracy-bursts") }
        let env = { (name: String) in Process.environment(name).flatMap { Int($0) } }
        let nights = env("ANCHOR_MUTANT_NIGHTS") ?? 20, first = env("ANCHOR_MUTANT_FIRST") ?? 0
        let mutants = Process.environment("ANCHOR_MUTANTS").map { $0.split(separator: " ").map(String.init) } ?? dopplerGuards
        let contenders = mutants.map { Contender.box($0, settings($0)) }
        var counts = Array(repeating: 0, count: mutants.count)
        for i in first..<(first + nights) {
            let s = night(cell, i, sources: sources)
            var rang: [String] = []
            let alarms = contenders.map { $0.run(s).firstAlarm }
            for (k, alarm) in alarms.enumerated() {
                if let t = alarm { rang.append("\(mutants[k]) at \(Format.fixed(t)) s"); counts[k] += 1 }
            }
            if env("ANCHOR_MUTANT_TRACE") == i, let m = mutants.first {
                RegressionCheck.trace(s, settings(m), alarms[0] ?? 0)
            }
            guard !rang.isEmpty else { continue }
            let shipped = Contender.box("defaults", WatchSettings()).run(s).firstAlarm
            let position = Contender.box("vm=10", settings("vm=10")).run(s).firstAlarm
            print("\(cell.label) night \(i): \(rang.joined(separator: "; ")); shipped \(shipped.map { "rang at \(Format.fixed($0)) s" } ?? "quiet"), position alone \(position.map { "rang at \(Format.fixed($0)) s" } ?? "quiet")")
        }
        print("\(cell.label), nights \(first) to \(first + nights - 1): " + zip(mutants, counts).map { "\($0.0) \($0.1)" }.joined(separator: ", "))
    }
}
