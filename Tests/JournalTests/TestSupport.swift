import WatchCore
@testable import Journal

/// Deterministic randomness for crash points and noise: the same seed, the same night.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A stamp at `t` seconds of a test night (wall time a fixed night in 2024).
func stamp(_ t: Double) -> Stamp {
    Stamp(monotonic: Instant(seconds: t), wall: WallTime(seconds: 1_717_200_000 + t))
}

let testDirectory = "/journal"

func segmentPath(_ sequence: UInt64) -> String { testDirectory + "/" + SegmentName.name(sequence) }

/// Frames records the way the journal writes them.
func encode(_ records: [JournalRecord], from t: Double = 0) -> [UInt8] {
    records.enumerated().flatMap { i, r in Journal.frame(r, at: stamp(t + Double(i))) }
}

/// Every good record of `bytes`, in order.
func scanRecords(_ bytes: [UInt8]) -> (records: [JournalRecord], summary: SegmentScanner.Summary) {
    var out: [JournalRecord] = []
    let summary = SegmentScanner.scan(bytes, segment: "test") { _, r in out.append(r.record) }
    return (out, summary)
}

let harbour = Coordinate(latitude: 50.15, longitude: -5.07)

/// One of each record type, with values that exercise every field.
let sampleRecords: [JournalRecord] = [
    .segment(version: 1, sequence: 42),
    .snapshot(WatchMemory(anchor: harbour, radius: 35.5, armed: true, ringingEpisode: 3, lastEpisode: 4)),
    .snapshot(WatchMemory(anchor: nil, radius: 30, armed: false, ringingEpisode: nil, lastEpisode: 0)),
    .boot(after: .unclean),
    .boot(after: .clean),
    .boot(after: .firstStart),
    .boot(after: .unknown),
    .shutdown,
    .mark(anchor: harbour, how: .here),
    .mark(anchor: harbour, how: .offset(bearing: 123.5, distance: 40)),
    .mark(anchor: harbour, how: .at(Coordinate(latitude: -33.9, longitude: 151.2))),
    .release,
    .radius(42.25),
    .arm,
    .disarm,
    .alarmStart(episode: 7),
    .snooze(episode: 7, length: .seconds(300)),
    .alarmStop(episode: 7),
    .verdict(from: .holding, to: .checking, reason: nil),
    .verdict(from: .checking, to: .cantJudge, reason: .poorAccuracy),
    .faultRaised(Fault(.siren, "Siren: no sound device, the buzzer still sounds", pushes: true)),
    .faultRaised(Fault(.clock, "Clock: not set, times in the recap may be off", pushes: false)),
    .faultCleared(.gpsd),
    .trackFix(TrackFix(position: Coordinate(latitude: 50.1500123, longitude: -5.0700456), accuracy: 3.5, distance: 12.25)),
    .trackFix(TrackFix(position: Coordinate(latitude: 50.15, longitude: -5.07), accuracy: nil, distance: nil)),
    .farthest(41.125),
    // Cell means on the record's grid (2 m cells in 1/256ths, at the middle of one), ages in
    // whole minutes: what a swing record keeps exactly.
    .swing(SwingEstimator.Memory(
        origin: harbour, learnedFor: .seconds(3600), settledFor: .seconds(900), arcSeen: 140, readings: 3600,
        centres: [.init(age: .seconds(600), east: 1.5, north: -2.25), .init(age: .seconds(10), east: 1.75, north: -2.5)],
        cells: [.init(east: 7.00390625, north: -12.99609375, count: 8, age: .seconds(120)),
                .init(east: -0.99609375, north: 0.00390625, count: 255, age: .zero)])),
    .swing(SwingEstimator.Memory(origin: harbour, learnedFor: .seconds(5), settledFor: nil, arcSeen: 0, readings: 5,
                                 centres: [], cells: [])),
]
