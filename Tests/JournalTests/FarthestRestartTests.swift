import WatchCore
import XCTest
@testable import Journal
import JournalTestSupport

/// The farthest distance from the mark tonight survives a restart: the fix that set it is never
/// thinned out of the calm track, and every segment carries it after its snapshot, so rotation
/// and compaction (which delete the segment holding that fix) keep it too.
final class FarthestRestartTests: XCTestCase {
    /// Restarted a few seconds after the farthest was set: the fix that set it, thinned or not.
    func testARestartKeepsTheFarthestSetWhileCalm() throws {
        try restart(after: 40, compacted: false)
    }

    /// Restarted two hours later, the segment with that fix long compacted away.
    func testARestartKeepsTheFarthestAfterCompaction() throws {
        try restart(after: 7200, compacted: true)
    }

    func restart(after end: Int, compacted: Bool) throws {
        var limits = JournalLimits()
        limits.segmentBytes = 1024
        limits.totalBytes = 4096
        let fs = SimulatedFileSystem()
        let (journal, recovery) = Journal.open(directory: testDirectory, limits: limits, fileSystem: fs, at: stamp(0))
        var watch = Watch(settings: ScriptedNight.settings)
        _ = watch.restore(recovery, at: Instant(seconds: 0))
        let mark = Coordinate(latitude: 50.15, longitude: -5.07)
        func reading(_ t: Double, _ distance: Double) {
            let p = Geodesy.destination(from: mark, bearing: 200, distance: Meters(distance))
            let s = stamp(t)
            let actions = watch.handle(.reading(GPSReading(mode: .threeD, position: p, accuracy: 2, received: s.monotonic)), at: s.monotonic)
            _ = journal.record(actions, pace: TrackPace(of: watch), at: s)
        }
        for t in 0..<20 { reading(Double(t), 0) }
        let s = stamp(20)
        _ = journal.record(watch.handle(.decision(.mark(.here)), at: s.monotonic), pace: TrackPace(of: watch), at: s)
        // Calm, well inside the 30 m radius: a swing out to 17.3 m for one second, between two
        // fixes the calm track keeps (one per 10 s), then at 8 m.
        for t in 21..<35 { reading(Double(t), t == 27 ? 17.3 : 8) }
        XCTAssertEqual(watch.verdict.kind, .holding)
        XCTAssertEqual(try XCTUnwrap(watch.farthest).value, 17.3, accuracy: 0.01)
        for t in 35..<end { reading(Double(t), 8) }
        XCTAssertGreaterThan(journal.stats.tracksDropped, 0, "the calm track is thinned")
        XCTAssertEqual(journal.stats.segmentsDeleted > 0, compacted, "segments compacted away")
        _ = journal.flush(at: stamp(Double(end)))
        fs.simulateCrash()

        let (_, again) = Journal.open(directory: testDirectory, limits: limits, fileSystem: fs, at: stamp(Double(end + 100)))
        var restarted = Watch(settings: ScriptedNight.settings)
        _ = restarted.restore(again, at: Instant(seconds: Double(end + 100)))
        XCTAssertEqual(try XCTUnwrap(restarted.farthest, "restored").value, 17.3, accuracy: 0.001)
        XCTAssertEqual(restarted.anchor, watch.anchor)
    }

    /// A journal written before the farthest was kept (format 2: no farthest record) still
    /// opens, with the farthest unknown rather than made up.
    func testAVersion2JournalOpensWithNoFarthest() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory(testDirectory)
        let anchor = Coordinate(latitude: 50.15, longitude: -5.07)
        let file = try fs.create(segmentPath(1))
        try file.append(encode([.segment(version: 2, sequence: 1), .snapshot(WatchMemory(anchor: anchor, radius: 30)), .boot(after: .clean)]))
        try file.syncData()
        file.close()
        try fs.syncDirectory(testDirectory)
        let (_, recovery) = Journal.open(directory: testDirectory, fileSystem: fs, at: stamp(100))
        XCTAssertEqual(recovery.memory.anchor, anchor)
        XCTAssertNil(recovery.farthest)
        XCTAssertNil(recovery.fault)
    }
}
