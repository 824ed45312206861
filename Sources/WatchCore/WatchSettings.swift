/// The watch's tunables. Defaults for the evidence rule come from the detection benchmark
/// (Docs/benchmarks.md), not from taste; the configuration file may override each.
public struct WatchSettings: Hashable, Sendable {
    /// Alert radius until the skipper sets one.
    public var radius: Meters = 30
    public var radiusRange: ClosedRange<Double> = 5...500

    /// How far back the evidence window reaches.
    public var window: Duration = .seconds(20)
    /// How long a majority outside must last before checking becomes dragging, when the boat
    /// is not drifting away (see `driftConfirmation`).
    public var confirmation: Duration = .seconds(60)
    /// The share of fixes in the window that must lie outside for "checking".
    public var majority: Double = 0.8
    /// Fewest usable fixes in the window before a majority counts.
    public var minFixes: Int = 3
    /// A fix counts as outside only when it is outside by more than this many of its own
    /// reported accuracies (0 ignores accuracy). Off by default: the benchmark's rule reaches
    /// zero false alarms on distance and drift alone, so a receiver that under-reports its
    /// error (a poor one claiming HDOP 1) can't defeat it (Docs/benchmarks.md).
    public var accuracyWeight: Double = 0
    /// Drift: a dragging boat moves steadily away from its anchor, noise wanders and comes back.
    /// While the distance over the last `driftSpan` rises at `driftSpeed` m/s or faster (least
    /// squares), checking fills over `driftConfirmation` instead of `confirmation`. A zero span
    /// turns drift off; a boat that stays outside without drifting still rings after
    /// `confirmation`.
    public var driftSpan: Duration = .seconds(20)
    public var driftSpeed: Double = 0.1
    public var driftConfirmation: Duration = .seconds(20)

    /// A fix older than this no longer counts: can't judge.
    public var staleAfter: Duration = .seconds(10)
    /// Fixes whose accuracy is worse than this share of the alert radius are not evidence.
    /// gpsd's eph is a pessimistic 95% figure (HDOP x 19 m on gpsd 3.22), hence a share above 1.
    public var accuracyLimitFraction: Double = 2.0
    /// Fastest a boat at anchor can plausibly move, m/s; faster jumps are a receiver gone mad.
    public var maxPlausibleSpeed: Double = 15

    /// Armed with no usable GPS for this long raises the GPS fault (the fault pattern, never
    /// the drag siren).
    public var gpsGrace: Duration = .seconds(60)
    public var snooze: Duration = .seconds(300)

    /// A mark averages the good fixes of the last `markSpan`, at most `markFixes` of them, and
    /// needs at least `markMinFixes`.
    public var markSpan: Duration = .seconds(10)
    public var markFixes: Int = 5
    public var markMinFixes: Int = 3
    /// A mark by bearing and distance further than this from the boat is refused.
    public var markMaxOffset: Meters = 1000

    public init() {}
}
