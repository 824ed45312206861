// Measures what the journal costs the SD card and how fast a restart restores, on the real file
// system (a temporary directory, real fdatasync). Prints numbers; asserts nothing about time.
//   swift run -c release JournalBench [--days N] [--dir PATH]
//   JournalBench --restore-only DIR   (used by the benchmark itself: a fresh process that restores)
import Journal
import Posix
import WatchCore

let fs = Workloads.fs
let epoch = Workloads.epoch
func stamp(_ t: Double) -> Stamp { Workloads.stamp(t) }
func fixed(_ x: Double, _ d: Int) -> String { FixedPoint.fixed(x, d) }
func monotonicNow() -> Double { Workloads.monotonicNow() }


var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--restore-only", arguments.count == 2 {
    let (journal, recovery) = Journal.open(directory: arguments[1], fileSystem: fs, at: stamp(99_999_999))
    var watch = Watch()
    _ = watch.restore(recovery.memory, at: Instant(seconds: 1))
    journal.close()
    Process.exit(watch.anchor == nil ? 1 : 0)
}
var days = 30
var base = "/tmp"
while let a = arguments.first {
    arguments.removeFirst()
    switch a {
    case "--days": days = Int(arguments.removeFirst()) ?? 30
    case "--dir": base = arguments.removeFirst()
    default:
        print("usage: JournalBench [--days N] [--dir PATH]")
        Process.exit(2)
    }
}

print("Journal benchmark (real file system under \(base), real fdatasync, default limits)")
for hz in [1.0, 10.0] {
    let (s, cpu) = Workloads.holdingHour(hz: hz, base: base)
    print("  holding an hour at \(Int(hz)) Hz: \(s.bytesWritten) bytes written, \(s.dataSyncs) data syncs, "
        + "\(s.directorySyncs) directory syncs, \(s.tracksKept) fixes kept of \(s.tracksKept + s.tracksDropped); "
        + "\(fixed(cpu * 1000, 0)) ms to run the hour")
}

let dir = Workloads.temporaryDirectory(base)
defer { Workloads.removeTree(dir) }
let buildStart = monotonicNow()
let records = Workloads.buildJournal(days: days, dir: dir)
let (bytes, files) = Workloads.directoryBytes(dir)
print("  \(days)-day journal: \(records) records, \(bytes) bytes (\(fixed(Double(bytes) / 1_048_576, 1)) MiB) in \(files) segments, built in \(fixed(monotonicNow() - buildStart, 1)) s")

// The first start after the 30 days reads the newest segment, which holds the whole last day;
// every later start finds the small segment its predecessor began.
let newest = ((try? fs.list(dir)) ?? []).sorted().last ?? ""
let newestBytes = (try? fs.size(dir + "/" + newest)) ?? 0
let firstStart = monotonicNow()
let (firstJournal, firstRecovery) = Journal.open(directory: dir, fileSystem: fs, at: stamp(1e8 - 1))
var firstWatch = Watch()
_ = firstWatch.restore(firstRecovery.memory, at: Instant(seconds: 1))
let firstOpen = monotonicNow() - firstStart
firstJournal.close()
print("  first start after the \(days) days: open and restore in \(fixed(firstOpen * 1000, 2)) ms; read \(firstRecovery.segmentsRead) segment "
    + "of \(newestBytes) bytes, replayed \(firstRecovery.recordsReplayed) records, alarm \(firstWatch.alarm), anchor \(firstRecovery.memory.anchor.map { "\($0)" } ?? "none")")

var opens: [Double] = []
var lastRecovery: Journal.Recovery?
for i in 0..<5 {
    let start = monotonicNow()
    let (journal, recovery) = Journal.open(directory: dir, fileSystem: fs, at: stamp(1e8 + Double(i)))
    var watch = Watch()
    _ = watch.restore(recovery.memory, at: Instant(seconds: 1))
    opens.append(monotonicNow() - start)
    journal.close()
    lastRecovery = recovery
}
opens.sort()
if let r = lastRecovery {
    print("  later starts, open and restore in process: median \(fixed(opens[2] * 1000, 2)) ms (min \(fixed(opens[0] * 1000, 2)), max \(fixed(opens[4] * 1000, 2))); "
        + "read \(r.segmentsRead) segment(s), replayed \(r.recordsReplayed) records, anchor \(r.memory.anchor.map { "\($0)" } ?? "none")")
}
var spawns: [Double] = []
for _ in 0..<5 { if let s = Workloads.timeRestoreProcess(dir) { spawns.append(s) } }
spawns.sort()
if spawns.count == 5 {
    print("  process start to restored state (spawn to exit of a fresh process): median \(fixed(spawns[2] * 1000, 1)) ms (min \(fixed(spawns[0] * 1000, 1)), max \(fixed(spawns[4] * 1000, 1)))")
} else {
    print("  process start to restored state: the restore process failed")
}

let reader = JournalReader(directory: dir, fileSystem: fs)
var scanned = 0
let scanStart = monotonicNow()
let notes = reader.forEach { _ in scanned += 1; return true }
print("  reading the whole journal (recap, export): \(scanned) records in \(fixed((monotonicNow() - scanStart) * 1000, 0)) ms, \(notes.count) notes")
let queryStart = monotonicNow()
let point = reader.position(at: WallTime(seconds: epoch + Double(days / 2) * 86_400 + 3600))
print("  where was the boat at a wall time (mark --ago): \(point.map { "\($0.position)" } ?? "not found") in \(fixed((monotonicNow() - queryStart) * 1000, 0)) ms")
