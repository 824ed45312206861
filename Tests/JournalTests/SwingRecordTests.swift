import WatchCore
import XCTest
@testable import Journal
import JournalTestSupport

/// What the swing has learnt survives a restart (swing records, format 4): the latest is
/// recovered through rotation and compaction (each segment carries it after its snapshot), a
/// new anchorage forgets it, a mark that kept it keeps it, and an older journal opens without one.
final class SwingRecordTests: XCTestCase {
    static let learnt = SwingEstimator.Memory(
        origin: harbour, learnedFor: .seconds(3000), settledFor: .seconds(1200), arcSeen: 150, readings: 3000,
        centres: [.init(age: .seconds(300), east: 4.5, north: -20.25)],
        cells: (0..<40).map { i in
            let a = Double(i) * 0.07
            return .init(east: 25 * sin(a), north: -25 * cos(a), count: 8, age: .seconds(60 * (40 - i)))
        })

    func open(_ fs: SimulatedFileSystem, _ limits: JournalLimits = JournalLimits(), at t: Double) -> (Journal, Journal.Recovery) {
        Journal.open(directory: testDirectory, limits: limits, fileSystem: fs, at: stamp(t))
    }

    /// A mark, a swing record, then a calm track (one fix a second, 20 m off) until `until` s,
    /// flushed.
    func markLearnAndHold(_ limits: JournalLimits, until: Int) -> (SimulatedFileSystem, Journal) {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs, limits, at: 0)
        _ = journal.commit([.mark(anchor: harbour, how: .here)], at: stamp(1))
        _ = journal.record([.swingLearnt(Self.learnt)], pace: .calm, at: stamp(2))
        let p = Geodesy.destination(from: harbour, bearing: 200, distance: 20)
        for t in 3..<until {
            _ = journal.record([.track(GPSReading(mode: .threeD, position: p, accuracy: 3, received: stamp(Double(t)).monotonic),
                                       distance: 20)], pace: .calm, at: stamp(Double(t)))
        }
        _ = journal.flush(at: stamp(Double(until)))
        return (fs, journal)
    }

    /// The swing record's segment compacted away two hours later: the newest segment's copy,
    /// aged to when that segment started, is what comes back.
    func testTheSwingSurvivesCompaction() throws {
        var limits = JournalLimits()
        limits.segmentBytes = 4096
        limits.totalBytes = 12288
        let (fs, journal) = markLearnAndHold(limits, until: 7200)
        XCTAssertGreaterThan(journal.stats.segmentsDeleted, 0, "the swing record's segment is compacted away")
        fs.simulateCrash()
        let (_, recovery) = open(fs, limits, at: 7300)
        let swing = try XCTUnwrap(recovery.swing, "restored after compaction")
        XCTAssertEqual(swing.cells.count, Self.learnt.cells.count)
        XCTAssertEqual(swing.arcSeen, 150)
        for (a, b) in zip(swing.cells, Self.learnt.cells) {
            XCTAssertEqual(a.east, b.east, accuracy: 0.005)
            XCTAssertEqual(a.north, b.north, accuracy: 0.005)
            XCTAssertEqual(a.count, b.count)
            XCTAssertGreaterThan(a.age, b.age, "aged to the segment that carries it")
        }
        XCTAssertGreaterThan(swing.learnedFor, Self.learnt.learnedFor)
    }

    /// A mark at a new anchorage (the watch starts its swing again and hands on none) forgets
    /// what was learnt; a mark that kept the swing (the watch hands it on with the mark, in the
    /// same turn) keeps it: the record follows the mark in the file.
    func testAMarkForgetsTheSwingUnlessTheSwingComesWithIt() throws {
        for kept in [false, true] {
            let fs = SimulatedFileSystem()
            let (journal, _) = open(fs, at: 0)
            _ = journal.commit([.mark(anchor: harbour, how: .here)], at: stamp(1))
            _ = journal.record([.swingLearnt(Self.learnt)], pace: .calm, at: stamp(2))
            let moved = Geodesy.destination(from: harbour, bearing: 10, distance: 15)
            // The mark's receipt as the watch gives it.
            var watch = Watch()
            let marked = watch.handle(.decision(.mark(.at(moved))), at: stamp(3).monotonic)
            XCTAssertTrue(marked.contains { if case .accepted = $0 { true } else { false } })
            _ = journal.record(marked + (kept ? [.swingLearnt(Self.learnt)] : []), pace: .calm, at: stamp(3))
            journal.close()
            let (_, recovery) = open(fs, at: 10)
            XCTAssertEqual(recovery.memory.anchor, moved)
            XCTAssertEqual(recovery.swing != nil, kept, kept ? "kept with the mark" : "forgotten by the mark")
        }
    }

    /// A journal written before swing records (format 3) opens with nothing learnt, not made up.
    func testAVersion3JournalOpensWithNoSwing() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory(testDirectory)
        let file = try fs.create(segmentPath(1))
        try file.append(encode([.segment(version: 3, sequence: 1), .snapshot(WatchMemory(anchor: harbour, radius: 30)),
                                .farthest(12), .boot(after: .clean)]))
        try file.syncData()
        file.close()
        try fs.syncDirectory(testDirectory)
        let (_, recovery) = open(fs, at: 100)
        XCTAssertEqual(recovery.memory.anchor, harbour)
        XCTAssertEqual(recovery.farthest, 12)
        XCTAssertNil(recovery.swing)
        XCTAssertNil(recovery.fault)
    }

    /// Segments too small for the swing record (a quarter of one at most) don't carry it: with
    /// the swing record's segment compacted away, nothing is restored rather than every segment
    /// starting full.
    func testSmallSegmentsDoNotCarryTheSwing() throws {
        var limits = JournalLimits()
        limits.segmentBytes = 1024
        limits.totalBytes = 2048
        let (fs, journal) = markLearnAndHold(limits, until: 3600)
        XCTAssertLessThan(journal.stats.segmentsStarted, 60, "segments fill with the track, not one a write")
        let (_, recovery) = open(fs, limits, at: 3700)
        XCTAssertNil(recovery.swing)
    }

    /// More cells than one record holds: the most recently visited are kept, and the record
    /// stays within the payload limit.
    func testAFullEstimatorFitsOneRecord() throws {
        var m = Self.learnt
        m.cells = (0..<1024).map { i in .init(east: Double(i % 64) * 2 + 1, north: Double(i / 64) * 2 + 1, count: 3,
                                              age: .seconds(i)) }
        let payload = JournalRecord.swing(m).payload(at: stamp(0))
        XCTAssertLessThanOrEqual(payload.count, JournalConstants.maxPayload)
        guard case .success(let back) = JournalRecord.decode(type: RecordType.swing.rawValue, payload: payload[...]),
            case .swing(let kept) = back.record
        else { return XCTFail("decodes") }
        XCTAssertEqual(kept.cells.count, JournalConstants.maxSwingCells)
        XCTAssertLessThanOrEqual(kept.cells.map(\.age).max()!, .seconds(JournalConstants.maxSwingCells))
        // With the receiver's wander after the cells too (format 5).
        m.wander = Self.wander
        let full = JournalRecord.swing(m).payload(at: stamp(0))
        XCTAssertLessThanOrEqual(full.count, JournalConstants.maxPayload)
        guard case .success(let both) = JournalRecord.decode(type: RecordType.swing.rawValue, payload: full[...]),
            case .swing(let keptBoth) = both.record
        else { return XCTFail("decodes") }
        XCTAssertEqual(keptBoth.cells.count, JournalConstants.maxSwingCells)
        XCTAssertEqual(keptBoth.wander, Self.wander)
    }

    static let wander = Watch.NoiseEstimate.Memory(level: 21.5, swing: 24.25, variance: 1.5625, measuredFor: 2400,
                                                   weakVariance: nil, weakFor: 0, usualAccuracy: 2.5)

    /// The receiver's wander rides after the cells (format 5): it comes back as written (f32:
    /// these values exactly), a record without it (format 4) has none, and one whose wander is
    /// not plausible keeps its swing and drops the wander.
    func testTheWanderRidesWithTheSwing() throws {
        func decoded(_ payload: [UInt8]) -> SwingEstimator.Memory? {
            guard case .success(let back) = JournalRecord.decode(type: RecordType.swing.rawValue, payload: payload[...]),
                case .swing(let m) = back.record
            else { return nil }
            return m
        }
        var m = Self.learnt
        m.wander = Self.wander
        XCTAssertEqual(decoded(JournalRecord.swing(m).payload(at: stamp(0)))?.wander, Self.wander)
        var weak = Self.wander
        weak.weakVariance = 4
        weak.weakFor = 120
        weak.usualAccuracy = nil
        m.wander = weak
        XCTAssertEqual(decoded(JournalRecord.swing(m).payload(at: stamp(0)))?.wander, weak)
        let without = JournalRecord.swing(Self.learnt).payload(at: stamp(0))
        XCTAssertEqual(decoded(without)?.cells.count, Self.learnt.cells.count)
        XCTAssertNil(decoded(without)?.wander, "a record without the wander (format 4)")
        var bad = Self.wander
        bad.variance = -1
        m.wander = bad
        let kept = decoded(JournalRecord.swing(m).payload(at: stamp(0)))
        XCTAssertEqual(kept?.cells.count, Self.learnt.cells.count)
        XCTAssertNil(kept?.wander)
        // Through the journal: the latest record's wander is what a restart recovers.
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs, at: 0)
        _ = journal.commit([.mark(anchor: harbour, how: .here)], at: stamp(1))
        m.wander = Self.wander
        _ = journal.record([.swingLearnt(m)], pace: .calm, at: stamp(2))
        _ = journal.flush(at: stamp(3))
        let (_, recovery) = open(fs, at: 10)
        XCTAssertEqual(recovery.swing?.wander, Self.wander)
    }

    /// The quick excursions' reach and longest outing ride after the wander (format 6): they
    /// come back as written; a record that ends before them (format 5) has the wander without
    /// them; ones that are not plausible are dropped, the wander kept.
    func testTheExcursionsRideWithTheWander() throws {
        func decoded(_ payload: [UInt8]) -> Watch.NoiseEstimate.Memory? {
            guard case .success(let back) = JournalRecord.decode(type: RecordType.swing.rawValue, payload: payload[...]),
                case .swing(let m) = back.record
            else { return nil }
            return m.wander
        }
        var m = Self.learnt
        var wander = Self.wander
        wander.reach = 12.5
        wander.outingLongest = 70.25
        m.wander = wander
        let full = JournalRecord.swing(m).payload(at: stamp(0))
        XCTAssertEqual(decoded(full), wander)
        var five = wander
        five.reach = nil
        five.outingLongest = nil
        XCTAssertEqual(decoded(Array(full.dropLast(8))), five, "a record of format 5 ends with the wander")
        var bad = wander
        bad.outingLongest = -3
        m.wander = bad
        XCTAssertEqual(decoded(JournalRecord.swing(m).payload(at: stamp(0))), five)
        bad.outingLongest = 70.25
        bad.reach = .infinity
        m.wander = bad
        XCTAssertEqual(decoded(JournalRecord.swing(m).payload(at: stamp(0))), five)
    }
}
