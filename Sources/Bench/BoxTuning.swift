import WatchCore

/// The tuning hook: the only place the benchmark names the box's evidence settings. Everything
/// else drives `Watch` with a `WatchSettings` it is handed and judges outcomes, so a new
/// detector brings its own knobs here (candidates for leave-one-receiver-out, presets for the
/// regression check's "deliberately worse rule") and nothing else in the benchmark changes.
enum BoxTuning {
    /// The box as shipped.
    static var defaults: WatchSettings { WatchSettings() }

    /// The settings leave-one-receiver-out chooses from on the training captures; the first is
    /// the shipped defaults. Each fold takes the quickest candidate with no false alarm on its
    /// training captures (Docs/benchmarks.md, "Held-out receivers").
    static func candidates() -> [(label: String, settings: WatchSettings)] {
        func variant(_ label: String, _ change: (inout WatchSettings) -> Void) -> (label: String, settings: WatchSettings) {
            var s = WatchSettings()
            change(&s)
            return (label, s)
        }
        return [
            ("defaults", WatchSettings()),
            variant("confirmation 45 s") { $0.confirmation = .seconds(45) },
            variant("confirmation 90 s") { $0.confirmation = .seconds(90) },
            variant("drift confirmation 15 s") { $0.driftConfirmation = .seconds(15) },
            variant("drift confirmation 30 s") { $0.driftConfirmation = .seconds(30) },
            variant("drift 0.05 m/s") { $0.driftSpeed = 0.05 },
        ]
    }

    /// Named settings for `--check --rule box:NAME`: the same watch core with its evidence rule
    /// weakened, to show that the regression check fails when the verdict breaks.
    static func preset(_ name: String) -> WatchSettings? {
        var s = WatchSettings()
        switch name {
        case "defaults": return s
        case "one-fix":
            // Rings on one stray fix: the combination the issue names (min_fixes 1,
            // confirmation 0, majority 0.5), drift off.
            s.minFixes = 1
            s.confirmation = .zero
            s.majority = 0.5
            s.driftSpan = .zero
            s.driftConfirmation = .zero
            return s
        default: return nil
        }
    }
}
