import Posix
import WatchCore

/// The tuning hook: the only place the benchmark names the box's evidence settings. Everything
/// else drives `Watch` with a `WatchSettings` it is handed and judges outcomes, so a new
/// detector brings its own knobs here (candidates for leave-one-receiver-out, presets for the
/// regression check's "deliberately worse rule") and nothing else in the benchmark changes.
enum BoxTuning {
    /// The box as shipped; `ANCHOR_BOX_SET` ("vt=1000,vk=0.5", the named knobs of
    /// `Tuning.grid`) changes it for an exploration run, never for CI.
    static var defaults: WatchSettings {
        var s = WatchSettings()
        if let set = Process.environment("ANCHOR_BOX_SET") {
            for named in set.split(separator: ",") where Tuning.apply(named, to: &s) == nil {
                fail("ANCHOR_BOX_SET: no knob \(named)")
            }
        }
        return s
    }

    /// The settings leave-one-receiver-out chooses from on the training captures; the first is
    /// the shipped defaults. Each fold takes the quickest candidate with no false alarm on its
    /// training captures (Docs/benchmarks.md, "Held-out receivers").
    static func candidates() -> [(label: String, settings: WatchSettings)] {
        func variant(_ label: String, _ change: (inout WatchSettings) -> Void) -> (label: String, settings: WatchSettings) {
            var s = defaults
            change(&s)
            return (label, s)
        }
        // The adaptive rule's three evidence knobs (Docs/verdict.md): the confirmation h (seconds
        // of one wander beyond the deadband), the deadband k (wanders beyond the radius that
        // count as nothing) and the fastest ring.
        // Relative to `defaults`, so an exploration run's ANCHOR_BOX_SET moves the whole set.
        let d = defaults
        return [
            ("defaults", d),
            variant("confirmation x 0.5") { $0.confirmation = d.confirmation * 0.5 },
            variant("confirmation x 2") { $0.confirmation = d.confirmation * 2 },
            variant("deadband - 0.5") { $0.deadband = d.deadband - 0.5 },
            variant("deadband + 0.5") { $0.deadband = d.deadband + 0.5 },
            variant("Doppler threshold + 1") { $0.dopplerThreshold = d.dopplerThreshold + 1 },
            variant("no Doppler") { $0.dopplerThreshold = .infinity },
        ]
    }

    /// Named settings for `--check --rule box:NAME`: the same watch core with its evidence rule
    /// weakened, to show that the regression check fails when the verdict breaks.
    static func preset(_ name: String) -> WatchSettings? {
        var s = WatchSettings()
        switch name {
        case "defaults": return s
        case "one-fix":
            // The evidence rule switched off as far as the settings allow: no deadband, one fix
            // enough, the shortest confirmation (what the configuration would refuse).
            s.minFixes = 1
            s.deadband = 0
            s.confirmation = .seconds(1)
            s.fastest = .seconds(1)
            return s
        case "no-doppler":
            // The reported speed never hastens: the position rule alone.
            s.dopplerThreshold = .infinity
            return s
        default: return nil
        }
    }
}
