/// The command line of `anchor-bench`.
struct BenchOptions {
    enum Mode { case detection, tune, check, explore(nights: Int), costDriver(fixes: Int), holdingLog(path: String, seconds: Int, dragging: Bool), anchorEstimate, receivers(seeds: UInt64), swingSettle(seeds: Range<UInt64>) }

    var mode: Mode = .detection
    var quick = false
    /// The rule `--check` judges: "box" (the shipped defaults), "box:PRESET" or a peer's slug.
    var rule = "box"
    /// `--check --fail-fast`: stop at the first failed run (a must-fail run needs only one), the
    /// cases run from the last.
    var failFast = false
    /// Nights per 1 Hz receiver class in the full run (the target is 1,000).
    var nights = 1000
    /// Nights per held-out capture and receiver class.
    var heldOutNights = 20
    /// Drags per speed at 1 Hz (10 Hz: a tenth), per condition and speed, per held-out capture.
    var drags = 100
    var conditionNights = 100
    var conditionDrags = 40
    var heldOutDrags = 20
    /// `--receivers`: the first night, and the receiver models (all by default).
    var first = 0
    var nightsGiven = false, dragsGiven = false
    var models = ReceiverModel.all.map { $0.name.replacingSpaces() }
    /// Which part of the detection benchmark to run (`scripts/bench.sh` runs them side by side).
    /// main-good and main-poor split main by receiver quality (the good one also replays the
    /// real captures and draws the plots).
    enum Part: String { case all, main, mainGood = "main-good", mainPoor = "main-poor", conditions, heldOut = "held-out" }
    var part = Part.all
    /// The shared test data beside the checkout, as CI lays it out (run from the repository).
    var data = "../shared/data/gps"
    /// Where the SVG plots go; nil writes none.
    var plots: String? = "Docs/benchmarks"

    static let usage = """
        usage: anchor-bench [--quick] [--part all|main|main-good|main-poor|conditions|held-out] [--nights N]
                            [--drags N] [--condition-nights N] [--condition-drags N] [--held-out-nights N] [--held-out-drags N]
                            [--data DIR] [--plots DIR | --no-plots]
               anchor-bench --check [--rule box | box:one-fix | one-fix | delay-60 | ...] [--fail-fast] [--data DIR]
               anchor-bench --tune [--quick] [--data DIR]
               anchor-bench --receivers tune|held-out [--rule RULE] [--nights N] [--first K] [--drags N] [--models good,poor,coupled,noisy-speed,filter-speed,lagged-speed]
               anchor-bench --explore NIGHTS [--data DIR]
               anchor-bench --cost-driver FIXES
               anchor-bench --holding-log FILE SECONDS
               anchor-bench --dragging-log FILE SECONDS
               anchor-bench --anchor [--quick] [--data DIR]
        Replays simulated nights and drags and the real captures through the watch core and
        the peers' rules, and prints false alarms and alarm delays. --quick is the CI smoke run.
        --check runs the deterministic regression set and exits 1 if any run fails.
        """

    struct Refusal: Error, CustomStringConvertible { var description: String }

    init(_ args: [String]) throws(Refusal) {
        var i = 0
        func value() throws(Refusal) -> String {
            i += 1
            guard i < args.count else { throw Refusal(description: "\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--quick": quick = true
            case "--tune": mode = .tune
            case "--anchor": mode = .anchorEstimate
            case "--swing-settle":
                // FIRST..LAST (inclusive): the nights' seeds.
                let parts = try value().split(separator: ".", omittingEmptySubsequences: true).compactMap { UInt64($0) }
                guard parts.count == 2, parts[0] <= parts[1] else { throw Refusal(description: "--swing-settle needs FIRST..LAST seeds") }
                mode = .swingSettle(seeds: parts[0]..<(parts[1] + 1))
            case "--check": mode = .check
            case "--fail-fast": failFast = true
            case "--rule": rule = try value()
            case "--part":
                guard let p = Part(rawValue: try value()) else { throw Refusal(description: "--part is all, main, main-good, main-poor, conditions or held-out") }
                part = p
            case "--drags", "--condition-nights", "--condition-drags", "--held-out-drags":
                let name = args[i]
                guard let n = Int(try value()), n > 0 else { throw Refusal(description: "\(name) needs a positive count") }
                switch name {
                case "--drags": drags = n; dragsGiven = true
                case "--condition-nights": conditionNights = n
                case "--condition-drags": conditionDrags = n
                default: heldOutDrags = n
                }
            case "--held-out-nights":
                guard let n = Int(try value()), n > 0 else { throw Refusal(description: "--held-out-nights needs a positive count") }
                heldOutNights = n
            case "--nights":
                guard let n = Int(try value()), n > 0 else { throw Refusal(description: "--nights needs a positive count") }
                nights = n
                nightsGiven = true
            case "--explore":
                guard let n = Int(try value()), n > 0 else { throw Refusal(description: "--explore needs a positive night count") }
                mode = .explore(nights: n)
            case "--data": data = try value()
            case "--plots": plots = try value()
            case "--no-plots": plots = nil
            case "--holding-log", "--dragging-log":
                let flag = args[i]
                let path = try value()
                guard let n = Int(try value()), n > 0 else { throw Refusal(description: "\(flag) needs a file and a positive number of seconds") }
                mode = .holdingLog(path: path, seconds: n, dragging: flag == "--dragging-log")
            case "--receivers":
                guard let set = ReceiverBench.seedSet(try value()) else { throw Refusal(description: "--receivers is tune or held-out") }
                mode = .receivers(seeds: set)
            case "--first":
                guard let n = Int(try value()), n >= 0 else { throw Refusal(description: "--first needs a night number") }
                first = n
            case "--models":
                models = try value().split(separator: ",").map(String.init)
                guard ReceiverBench.cells(models) != nil else {
                    throw Refusal(description: "--models names good, poor, \(ReceiverModel.all.map { $0.name.replacingSpaces() }.joined(separator: ", "))")
                }
            case "--cost-driver":
                guard let n = Int(try value()), n > 0 else { throw Refusal(description: "--cost-driver needs a positive count") }
                mode = .costDriver(fixes: n)
            case "-h", "--help": throw Refusal(description: BenchOptions.usage)
            default: throw Refusal(description: "unknown argument \(args[i])\n" + BenchOptions.usage)
            }
            i += 1
        }
    }
}
