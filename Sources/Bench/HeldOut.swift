/// Leave one receiver out. Every long stationary capture in turn is the held-out receiver: the
/// box's settings are chosen (among `BoxTuning.candidates()`) on simulated nights and drags made
/// from the other captures alone, then measured on nights and drags made from the held-out one
/// alone. A receiver class built from one capture: "good" is its residuals as recorded (pieces
/// of it stitched, rotated), "poor" the same pieces scaled so the capture's 95th percentile is
/// 15 to 20 m; its speed and course error is its own (none if it reports none).
struct HeldOut {
    struct Cell {
        var nights = 0, alarmed = 0
        var delays: [Double: [Double]] = [:]
        var missed = 0, early = 0
    }

    static let classes: [(profile: ReceiverProfile, margin: Double)] = [(.good(1), 10), (.poor(1), 20)]
    static let speeds = [0.5, 2.0]

    let captures: [NoiseCapture]
    /// The box under each candidate's settings (`BoxTuning.candidates()`).
    let candidates: [(label: String, contender: Contender)]
    let peers: [Contender]
    /// [candidate][capture][class], and the same for the peers.
    private(set) var box: [[[Cell]]]
    private(set) var peer: [[[Cell]]]
    private(set) var skipped: [String] = []
    private(set) var fixesReplayed = 0

    init(sources: [NoiseCapture], candidates: [(label: String, contender: Contender)], peers: [Contender]) {
        captures = sources.filter { $0.rms > 0.05 }
        skipped = sources.filter { $0.rms <= 0.05 }.map(\.name)
        self.candidates = candidates
        self.peers = peers
        let empty = Array(repeating: Array(repeating: Cell(), count: HeldOut.classes.count), count: captures.count)
        box = Array(repeating: empty, count: candidates.count)
        peer = Array(repeating: empty, count: peers.count)
    }

    mutating func run(nights: Int, drags: Int, progress: (String) -> Void) {
        for (j, capture) in captures.enumerated() {
            for (k, cell) in HeldOut.classes.enumerated() {
                for i in 0..<nights {
                    let s = Scenario(kind: .night, profile: cell.profile, margin: cell.margin,
                                     seed: DetectionBench.seed(6, UInt64(j), UInt64(k), 1, UInt64(i)), sources: [capture])
                    record(s, capture: j, cls: k)
                }
                for knots in HeldOut.speeds {
                    for i in 0..<drags {
                        let s = Scenario(kind: .drag(knots: knots), profile: cell.profile, margin: cell.margin,
                                         seed: DetectionBench.seed(6, UInt64(j), UInt64(k), UInt64(knots * 10), UInt64(i)), sources: [capture])
                        record(s, capture: j, cls: k)
                    }
                }
            }
            progress("held out \(capture.name): \(nights) nights, \(drags) drags per speed and class")
        }
    }

    private mutating func record(_ s: Scenario, capture j: Int, cls k: Int) {
        fixesReplayed += s.readings.count
        func add(_ cell: inout Cell, _ o: Contender.Outcome) {
            switch s.kind {
            case .night:
                cell.nights += 1
                if o.firstAlarm != nil { cell.alarmed += 1 }
            case .drag(let knots):
                guard let exit = s.exitT, let breakout = s.breakoutT else { return }
                if let a = o.firstAlarm, a < breakout { cell.early += 1 }
                else if let a = o.firstAlarm, a <= exit + Scenario.dragFollow { cell.delays[knots, default: []].append(a - exit) }
                else { cell.missed += 1 }
            case .restart: break
            }
        }
        for c in candidates.indices { add(&box[c][j][k], candidates[c].contender.run(s)) }
        for p in peers.indices { add(&peer[p][j][k], peers[p].run(s)) }
    }

    struct Fold {
        var heldOut: Int
        var chosen: Int
        var trainingFalse: Int
        var trainingNights: Int
    }

    /// For each held-out capture: the candidate with the fewest false alarms on all the other
    /// captures (both classes), then the fewest missed or early drags, then the lowest sum of
    /// the 0.5 kn median delays of the two classes.
    func folds() -> [Fold] {
        captures.indices.map { held in
            var best: (key: (Int, Int, Double), c: Int)?
            var bestNights = 0
            for c in candidates.indices {
                var falses = 0, nights = 0, bad = 0
                var delay = 0.0
                for k in HeldOut.classes.indices {
                    var pooled: [Double] = []
                    for j in captures.indices where j != held {
                        let cell = box[c][j][k]
                        falses += cell.alarmed
                        nights += cell.nights
                        bad += cell.missed + cell.early
                        pooled += cell.delays[0.5] ?? []
                    }
                    delay += Percentiles(pooled).median ?? 1e9
                }
                let key = (falses, bad, delay)
                if best == nil || key < best!.key { best = (key, c); bestNights = nights }
            }
            return Fold(heldOut: held, chosen: best?.c ?? 0, trainingFalse: best?.key.0 ?? 0, trainingNights: bestNights)
        }
    }

    private static func short(_ name: String) -> String { String(name.split(separator: "/").last ?? "") }

    private static func delays(_ cells: [Cell], _ knots: Double) -> String {
        let p = Percentiles(cells.flatMap { $0.delays[knots] ?? [] })
        let missed = cells.reduce(0) { $0 + $1.missed }, early = cells.reduce(0) { $0 + $1.early }
        return "\(Format.optional(p.median)) / \(Format.optional(p.worst))" + (missed > 0 ? ", \(missed) missed" : "") + (early > 0 ? ", \(early) early" : "")
    }

    /// One row per held-out capture: what was chosen, its false alarms in sample and held out, its drags held out.
    func foldTable() -> String {
        let header = ["Held-out capture", "noise RMS m; speed RMS m/s", "chosen on the others", "in sample: false alarms",
                      "held out good 10 m: false", "held out poor 20 m: false", "good 0.5 kn med / worst s",
                      "poor 0.5 kn med / worst s", "good 2 kn", "poor 2 kn"]
        let rows = folds().map { f -> [String] in
            let cells = box[f.chosen][f.heldOut], cap = captures[f.heldOut]
            return [HeldOut.short(cap.name), "\(Format.fixed(cap.rms, 1)); " + (cap.hasVelocity ? Format.fixed(cap.speedRMS, 2) : "none"),
                    candidates[f.chosen].label, "\(f.trainingFalse)/\(f.trainingNights)",
                    "\(cells[0].alarmed)/\(cells[0].nights)", "\(cells[1].alarmed)/\(cells[1].nights)",
                    HeldOut.delays([cells[0]], 0.5), HeldOut.delays([cells[1]], 0.5),
                    HeldOut.delays([cells[0]], 2), HeldOut.delays([cells[1]], 2)]
        }
        return Format.table(header, rows)
    }

    /// Every rule on the held-out folds, pooled: the box as chosen per fold, each candidate as
    /// it is (the shipped defaults first), and every peer.
    func ruleTable() -> String {
        let fs = folds()
        func row(_ name: String, _ cellsOf: (Int) -> [Cell]) -> [String] {
            let all = fs.map { cellsOf($0.heldOut) }
            let good = all.map { $0[0] }, poor = all.map { $0[1] }
            let foldsRang = all.filter { $0.contains { $0.alarmed > 0 } }.count
            return [name, "\(good.reduce(0) { $0 + $1.alarmed })/\(good.reduce(0) { $0 + $1.nights })",
                    "\(poor.reduce(0) { $0 + $1.alarmed })/\(poor.reduce(0) { $0 + $1.nights })", "\(foldsRang) of \(all.count)",
                    HeldOut.delays(good, 0.5), HeldOut.delays(poor, 0.5), HeldOut.delays(good, 2), HeldOut.delays(poor, 2)]
        }
        var rows = [row("Box, chosen per fold on the others") { held in box[fs[held].chosen][held] }]
        for c in candidates.indices { rows.append(row("Box, \(candidates[c].label)") { box[c][$0] }) }
        for p in peers.indices { rows.append(row(peers[p].name) { peer[p][$0] }) }
        return Format.table(["Rule", "good 10 m: false alarms", "poor 20 m: false alarms", "folds with a false alarm",
                             "good 0.5 kn med / worst s", "poor 0.5 kn med / worst s", "good 2 kn", "poor 2 kn"], rows)
    }
}
