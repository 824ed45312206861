// Writes the seed inputs in Fuzz/seeds/ from the real encoder. Run from the package root:
//   swift build --target JournalTestSupport && mkdir -p /tmp/ms && cp Fuzz/seeds/make-seeds.swift /tmp/ms/main.swift &&
//   swiftc -I .build/debug/Modules /tmp/ms/main.swift -module-name makeseeds \\
//     .build/debug/JournalTestSupport.build/*.o .build/debug/Journal.build/*.o .build/debug/Posix.build/*.o .build/debug/WatchCore.build/*.o -lm -o /tmp/makeseeds && /tmp/makeseeds
import Journal
import JournalTestSupport
import WatchCore
import Glibc

func write(_ path: String, _ bytes: [UInt8]) {
    let f = fopen(path, "wb")!
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
}
let fs = SimulatedFileSystem()
var limits = JournalLimits()
limits.segmentBytes = 600
let s = { (t: Double) in Stamp(monotonic: Instant(seconds: t), wall: WallTime(seconds: 1_717_200_000 + t)) }
let (j, _) = Journal.open(directory: "/j", limits: limits, fileSystem: fs, at: s(0))
let here = Coordinate(latitude: 50.15, longitude: -5.07)
_ = j.commit([.mark(anchor: here, how: .here), .radius(40), .arm], at: s(1))
j.track(TrackFix(position: here, accuracy: 3, distance: 2), pace: .attention, at: s(2))
j.batch(.verdict(from: .holding, to: .cantJudge, reason: .stale), pace: .attention, at: s(3))
j.batch(.faultRaised(Fault(.gpsLost, "GPS: no usable GPS reading for 1:00, can't judge a drag")), pace: .attention, at: s(4))
j.batch(.faultCleared(.gpsLost), pace: .attention, at: s(5))
_ = j.record([.swingLearnt(SwingEstimator.Memory(origin: here, learnedFor: .seconds(600), settledFor: nil, arcSeen: 40, readings: 600,
                                                  centres: [], cells: [.init(east: 2, north: -20, count: 5, age: .zero)]))],
             pace: .attention, at: s(5))
_ = j.commit([.alarmStart(episode: 1), .snooze(episode: 1, length: .seconds(300))], at: s(6))
_ = j.commit([.alarmStop(episode: 1), .disarm, .mark(anchor: here, how: .offset(bearing: 10, distance: 20)), .mark(anchor: here, how: .at(here)), .release], at: s(7))
let names = try! fs.list("/j").sorted()
var all: [UInt8] = []
for (i, n) in names.enumerated() {
    let b = try! fs.read("/j/" + n)
    all += b
    write("Fuzz/seeds/journal-reader/segment-\(i).bin", b)
}
write("Fuzz/seeds/journal-open/journal.bin", [40, 160] + all)
// Raw payload seeds for the reader's second view: type byte, then payload.
let records: [JournalRecord] = [.snapshot(WatchMemory(anchor: here, radius: 30, armed: true, ringingEpisode: 2, lastEpisode: 2)),
    .mark(anchor: here, how: .offset(bearing: 1, distance: 2)), .trackFix(TrackFix(position: here, accuracy: nil, distance: 4)),
    .faultRaised(Fault(.siren, "Siren: missing")), .verdict(from: .checking, to: .cantJudge, reason: .noFix), .snooze(episode: 3, length: .seconds(60)),
    .swing(SwingEstimator.Memory(origin: here, learnedFor: .seconds(1800), settledFor: .seconds(300), arcSeen: 90, readings: 1800,
                                 centres: [.init(age: .seconds(60), east: 3, north: -20)],
                                 cells: [.init(east: 1, north: -25, count: 8, age: .seconds(60)), .init(east: 9, north: -23, count: 2, age: .zero)]))]
for (i, r) in records.enumerated() { write("Fuzz/seeds/journal-reader/payload-\(i).bin", [r.type.rawValue] + r.payload(at: s(Double(i)))) }
print("seeds: \(names.count) segments, \(all.count) bytes")
