// libFuzzer target: Journal.open over damaged segments on the simulated file system. The input is
// split into up to three segment files at bytes chosen by the input itself. Opening must never
// fail or refuse, must leave a journal that saves a decision, and reopening must restore it.
import Journal
import JournalTestSupport
import WatchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func journalOpenFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let fs = SimulatedFileSystem()
    let directory = "/j"
    let cuts = bytes.count >= 2 ? [Int(bytes[0]) * bytes.count / 256, Int(bytes[1]) * bytes.count / 256].sorted() : [0, 0]
    let parts = [bytes[..<cuts[0]], bytes[cuts[0]..<cuts[1]], bytes[cuts[1]...]]
    for (i, part) in parts.enumerated() where !part.isEmpty {
        fs.setContents(directory + "/journal-" + String(repeating: "0", count: 15) + "\(i + 1).log", Array(part))
    }
    let t0 = Stamp(monotonic: Instant(seconds: 1), wall: WallTime(seconds: 1_700_000_000))
    let (journal, recovery) = Journal.open(directory: directory, fileSystem: fs, at: t0)
    guard journal.failure == nil else { fatalError("open failed on a healthy file system: \(recovery.notes)") }
    for note in recovery.notes where !note.description.hasPrefix("Journal: ") { fatalError("words: \(note)") }

    var watch = Watch()
    _ = watch.restore(recovery.memory, at: t0.monotonic)
    let t1 = Stamp(monotonic: Instant(seconds: 2), wall: WallTime(seconds: 1_700_000_001))
    let result = journal.record(watch.handle(.decision(.setRadius(42)), at: t1.monotonic), pace: TrackPace(of: watch), at: t1)
    // The journal keeps that the episode ringing at the restart was last answered with a snooze
    // (the watch rings again all the same: a restart ends a snooze), as PowerCutTests holds.
    var expected = WatchMemory(of: watch)
    expected.snoozed = expected.ringingEpisode != nil && expected.ringingEpisode == recovery.memory.ringingEpisode && recovery.memory.snoozed
    guard result.saved == .saved, journal.memory == expected else { fatalError("not saved or diverged: \(result), journal \(journal.memory), expected \(expected), recovered \(recovery.memory)") }
    fs.simulateCrash()
    let (_, again) = Journal.open(directory: directory, fileSystem: fs, at: t1)
    guard again.memory == expected else {
        fatalError("restored \(again.memory), expected \(expected)")
    }
    return 0
}
