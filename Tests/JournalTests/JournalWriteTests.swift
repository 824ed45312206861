import Posix
import WatchCore
import XCTest
@testable import Journal
import JournalTestSupport

/// Durability, batching, decimation, rotation and the failed state, on the simulated file system.
final class JournalWriteTests: XCTestCase {
    func open(_ fs: SimulatedFileSystem, _ limits: JournalLimits = JournalLimits(), at t: Double = 0) -> (Journal, Journal.Recovery) {
        Journal.open(directory: testDirectory, limits: limits, fileSystem: fs, at: stamp(t))
    }

    let fix = TrackFix(position: harbour, accuracy: 3, distance: 5)

    func testADecisionIsDurableWhenCommitReturnsSaved() {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs)
        let syncs = fs.dataSyncs
        XCTAssertEqual(journal.commit([.mark(anchor: harbour, how: .here), .radius(45)], at: stamp(1)).saved, .saved)
        XCTAssertEqual(fs.dataSyncs, syncs + 1, "one sync per commit")
        fs.simulateCrash()
        let (_, r) = open(fs, at: 2)
        XCTAssertEqual(r.memory, WatchMemory(anchor: harbour, radius: 45))
    }

    func testOpenWritesSegmentSnapshotBootAndSyncsTheDirectory() throws {
        let fs = SimulatedFileSystem()
        _ = open(fs)
        XCTAssertEqual(fs.dataSyncs, 1)
        XCTAssertEqual(fs.directorySyncs, 1)
        fs.simulateCrash()
        let bytes = try XCTUnwrap(fs.contents(segmentPath(1)), "created and directory-synced: survives a crash")
        XCTAssertEqual(scanRecords(bytes).records, [.segment(version: JournalConstants.formatVersion, sequence: 1), .snapshot(.fresh()), .boot(after: .firstStart)])
    }

    func testTrackIsDecimatedWhileCalmAndKeptWhileAtStake() {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs)
        for i in 0..<100 { journal.track(fix, pace: .calm, at: stamp(Double(i) * 0.1)) }  // 10 s at 10 Hz
        XCTAssertEqual(journal.stats.tracksKept, 1)
        for i in 0..<100 { journal.track(fix, pace: .calm, at: stamp(10 + Double(i))) }  // 100 s at 1 Hz
        XCTAssertEqual(journal.stats.tracksKept, 11)
        for i in 0..<50 { journal.track(fix, pace: .attention, at: stamp(200 + Double(i) * 0.1)) }
        XCTAssertEqual(journal.stats.tracksKept, 61)
    }

    func testBatchWaitsForItsFlushAgeThenSyncsOnce() {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs)
        let syncs = fs.dataSyncs
        journal.track(fix, pace: .calm, at: stamp(10))
        XCTAssertEqual(journal.nextDeadline, Instant(seconds: 310))
        XCTAssertEqual(journal.flushIfDue(at: stamp(309)).saved, .nothing)
        XCTAssertEqual(fs.dataSyncs, syncs, "nothing touches the card before the flush age")
        XCTAssertEqual(journal.flushIfDue(at: stamp(310)).saved, .saved)
        XCTAssertEqual(fs.dataSyncs, syncs + 1)
        XCTAssertNil(journal.nextDeadline)
    }

    func testBatchFlushAgeShortensWhileAtStake() {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs)
        journal.track(fix, pace: .calm, at: stamp(10))
        journal.track(fix, pace: .attention, at: stamp(12))
        XCTAssertEqual(journal.nextDeadline, Instant(seconds: 20))
        XCTAssertEqual(journal.flushIfDue(at: stamp(20)).saved, .saved)
        XCTAssertNil(journal.nextDeadline)
        let records = scanRecords(fs.contents(segmentPath(1))!).records
        XCTAssertEqual(records.filter { if case .trackFix = $0 { true } else { false } }.count, 2)
    }

    func testABatchFullOfBytesIsDueAtOnce() {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs)
        for i in 0..<200 { journal.track(fix, pace: .attention, at: stamp(1 + Double(i) * 0.01)) }
        XCTAssertEqual(journal.nextDeadline, Instant(seconds: 1))
    }

    func testBatchedRecordsRideTheNextDecisionsSync() {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs)
        journal.track(fix, pace: .calm, at: stamp(1))
        journal.batch(.verdict(from: .holding, to: .checking, reason: nil), pace: .attention, at: stamp(2))
        XCTAssertEqual(journal.commit([.arm], at: stamp(3)).saved, .saved)
        fs.simulateCrash()
        let records = scanRecords(fs.contents(segmentPath(1))!).records
        XCTAssertEqual(Array(records.suffix(3)), [.trackFix(fix), .verdict(from: .holding, to: .checking, reason: nil), .arm])
    }

    func testUnflushedTrackIsLostInACrashButNoDecisionIs() {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs)
        _ = journal.commit([.mark(anchor: harbour, how: .here)], at: stamp(1))
        journal.track(fix, pace: .calm, at: stamp(2))
        fs.simulateCrash()
        let (_, r) = open(fs, at: 3)
        XCTAssertEqual(r.memory.anchor, harbour)
        XCTAssertFalse(scanRecords(fs.contents(segmentPath(1))!).records.contains(.trackFix(fix)))
    }

    func testRotationWritesASnapshotAndCompactionKeepsTheSizeBounded() throws {
        var limits = JournalLimits()
        limits.segmentBytes = 1024
        limits.totalBytes = 4096
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs, limits)
        _ = journal.commit([.mark(anchor: harbour, how: .here), .radius(50), .arm], at: stamp(1))
        for i in 0..<2000 {
            journal.track(fix, pace: .attention, at: stamp(2 + Double(i)))
            _ = journal.flushIfDue(at: stamp(2 + Double(i)))
        }
        let names = try fs.list(testDirectory).sorted()
        let sizes = try names.map { try fs.size(testDirectory + "/" + $0) }
        XCTAssertGreaterThan(journal.stats.segmentsStarted, 20)
        XCTAssertLessThanOrEqual(sizes.reduce(0, +), limits.totalBytes)
        XCTAssertTrue(sizes.allSatisfy { $0 <= limits.segmentBytes })
        for name in names {
            let records = scanRecords(try fs.read(testDirectory + "/" + name)).records
            XCTAssertEqual(records.prefix(2).map(\.type), [.segment, .snapshot], name)
        }
        let (_, r) = open(fs, limits, at: 3000)
        XCTAssertEqual(r.memory, WatchMemory(anchor: harbour, radius: 50, armed: true))
        XCTAssertEqual(r.segmentsRead, 1, "a restore reads only the newest segment")
    }

    func testFreeSpaceBelowTheReserveDeletesOldTrack() throws {
        var limits = JournalLimits()
        limits.segmentBytes = 1024
        limits.minFreeBytes = 8192
        let fs = SimulatedFileSystem()
        fs.capacity = 12_000
        let (journal, _) = open(fs, limits)
        for i in 0..<1000 {
            journal.track(fix, pace: .attention, at: stamp(Double(i)))
            XCTAssertNotEqual(journal.flushIfDue(at: stamp(Double(i))).saved, .notSaved(JournalFailure(FileSystemError(.append, "", .noSpace))))
        }
        XCTAssertNil(journal.failure)
        XCTAssertGreaterThanOrEqual(try fs.freeSpace(testDirectory), 8192 - 1024)
    }

    // MARK: - Disk full, read-only, I/O errors

    func checkFailure(_ errno: Errno, on ops: Set<FileSystemError.Operation>, kind: JournalFailure.Kind, message: String) {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs)
        XCTAssertEqual(journal.commit([.mark(anchor: harbour, how: .here)], at: stamp(1)).saved, .saved)
        fs.inject(errno, on: ops)
        let failed = journal.commit([.radius(60)], at: stamp(2))
        guard case .notSaved(let failure) = failed.saved else { return XCTFail("\(failed)") }
        XCTAssertEqual(failure.kind, kind)
        XCTAssertEqual(failed.events, [.faultRaised(Fault(.journal, message, pushes: true))])
        XCTAssertEqual(journal.failure?.kind, kind)
        XCTAssertEqual(journal.memory.radius, 60, "the box keeps watching from memory")

        // Still failing: not saved again, no second announcement.
        let again = journal.commit([.arm], at: stamp(3))
        guard case .notSaved(let stillFailing) = again.saved else { return XCTFail("\(again)") }
        XCTAssertEqual(stillFailing.kind, kind)
        XCTAssertEqual(again.events, [])
        XCTAssertEqual(journal.nextDeadline, Instant(seconds: 33), "retry after the interval")

        // The card comes back: the retry starts a new segment holding everything decided meanwhile.
        fs.clearInjections()
        let back = journal.flushIfDue(at: stamp(33))
        XCTAssertEqual(back.saved, .saved)
        XCTAssertEqual(back.events, [.faultCleared(.journal)])
        fs.simulateCrash()
        let (_, r) = open(fs, at: 40)
        XCTAssertEqual(r.memory, WatchMemory(anchor: harbour, radius: 60, armed: true))
    }

    func testDiskFullOnWrite() {
        checkFailure(.noSpace, on: [.append], kind: .diskFull, message: "Journal: storage is full, changes are not saved")
    }

    func testDiskFullOnSync() {
        checkFailure(.noSpace, on: [.sync], kind: .diskFull, message: "Journal: storage is full, changes are not saved")
    }

    func testReadOnlyFileSystem() {
        checkFailure(.readOnly, on: [.append, .create, .sync, .truncate, .syncDirectory], kind: .readOnly,
                     message: "Journal: storage is read-only, changes are not saved")
    }

    func testIOErrorOnSync() {
        checkFailure(.io, on: [.sync], kind: .ioError, message: "Journal: can't write to storage, changes are not saved")
    }

    func testIOErrorOnWriteWithAShortWrite() {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs)
        fs.inject(.io, on: [.append], times: 1, partialWrite: 0.5)
        guard case .notSaved = journal.commit([.radius(60)], at: stamp(1)).saved else { return XCTFail() }
        XCTAssertEqual(journal.commit([.radius(70)], at: stamp(2)).saved, .saved, "the next commit retries at once")
        fs.simulateCrash { Array($0) }  // the card kept the half-written record
        let (_, r) = open(fs, at: 3)
        XCTAssertEqual(r.memory.radius, 70)
        XCTAssertEqual(r.segmentsRead, 1, "the poisoned segment is older than the retry's snapshot")
        let notes = JournalReader(directory: testDirectory, fileSystem: fs).forEach { _ in true }
        XCTAssertTrue(notes.contains { if case .tornTail(SegmentName.name(1), _, _) = $0 { true } else { false } },
                      "the half-written record is cut when read: \(notes)")
    }

    func testFailedSyncIsNeverReportedAsSavedEvenIfTheDataLanded() {
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs)
        fs.inject(.io, on: [.sync], times: 1)
        guard case .notSaved = journal.commit([.radius(60)], at: stamp(1)).saved else { return XCTFail() }
        // The poisoned segment is never written again: the next commit goes to a new segment.
        XCTAssertEqual(journal.commit([.radius(61)], at: stamp(2)).saved, .saved)
        XCTAssertNotNil(fs.contents(segmentPath(2)))
        let first = scanRecords(fs.contents(segmentPath(1))!).records
        XCTAssertEqual(first.last, .radius(60), "written, not synced, and never appended to again")
    }

    func testDiskFullFreesOldSegmentsAndRetriesOnce() throws {
        var limits = JournalLimits()
        limits.segmentBytes = 1024
        limits.minFreeBytes = 0
        let fs = SimulatedFileSystem()
        let (journal, _) = open(fs, limits)
        _ = journal.commit([.mark(anchor: harbour, how: .here)], at: stamp(1))
        for i in 0..<300 {
            journal.track(fix, pace: .attention, at: stamp(2 + Double(i)))
            _ = journal.flushIfDue(at: stamp(2 + Double(i)))
        }
        XCTAssertGreaterThan(try fs.list(testDirectory).count, 3)
        fs.inject(.noSpace, on: [.append], times: 1)
        XCTAssertEqual(journal.commit([.radius(90)], at: stamp(400)).saved, .saved, "freed space, retried")
        XCTAssertLessThanOrEqual(try fs.list(testDirectory).count, 3)
        fs.simulateCrash()
        let (_, r) = open(fs, limits, at: 401)
        XCTAssertEqual(r.memory, WatchMemory(anchor: harbour, radius: 90))
    }

    func testJournalThatCannotStartStillOpensAndWatchesFromMemory() {
        let fs = SimulatedFileSystem()
        let (j0, _) = open(fs)
        _ = j0.commit([.mark(anchor: harbour, how: .here), .arm], at: stamp(1))
        fs.inject(.readOnly, on: [.create, .append, .sync, .truncate, .syncDirectory])
        let (journal, r) = open(fs, at: 2)
        XCTAssertEqual(r.memory.anchor, harbour, "reading still works")
        XCTAssertEqual(r.fault, Fault(.journal, "Journal: storage is read-only, changes are not saved", pushes: true))
        XCTAssertEqual(r.events, [.faultRaised(r.fault!)])
        XCTAssertEqual(journal.failure?.kind, .readOnly)
        var watch = Watch()
        _ = watch.restore(r.memory, at: Instant(seconds: 2))
        XCTAssertEqual(watch.alarm, .armed)
    }

    // MARK: - The helper from actions

    func testActionsMapToRecords() {
        let now = Instant(seconds: 100)
        // Receipts come from a real watch (WatchCore keeps their initializer to itself).
        var watch = Watch()
        for i in 0..<5 {
            _ = watch.handle(.reading(GPSReading(mode: .threeD, position: harbour, accuracy: 3,
                                                 received: Instant(seconds: 95 + Double(i)))), at: Instant(seconds: 95 + Double(i)))
        }
        func accepted(_ e: Event) -> Action? {
            watch.handle(e, at: now).first { if case .accepted = $0 { true } else { false } }
        }
        let mark = accepted(.decision(.mark(.here)))!
        guard case .accepted(let markReceipt, _) = mark, let anchor = markReceipt.anchor else { return XCTFail() }
        XCTAssertEqual(JournalRecord.from(mark, at: now), .mark(anchor: anchor, how: .here))
        XCTAssertEqual(JournalRecord.from(accepted(.armSwitch(on: true))!, at: now), .arm)
        XCTAssertEqual(JournalRecord.from(accepted(.armSwitch(on: false))!, at: now), .disarm)
        XCTAssertEqual(JournalRecord.from(accepted(.decision(.setRadius(45)))!, at: now), .radius(45))
        XCTAssertEqual(JournalRecord.from(accepted(.decision(.release))!, at: now), .release)
        XCTAssertEqual(JournalRecord.from(.alarmChanged(from: .armed, to: .ringing(episode: 2)), at: now), .alarmStart(episode: 2))
        XCTAssertEqual(JournalRecord.from(.alarmChanged(from: .snoozed(until: now, episode: 2), to: .armed), at: now), .alarmStop(episode: 2))
        XCTAssertNil(JournalRecord.from(.alarmChanged(from: .off, to: .armed), at: now), "the arm record says it")
        XCTAssertNil(JournalRecord.from(.alarmSound(on: true), at: now))
        XCTAssertNil(JournalRecord.from(.refused(.arm, .noAnchor), at: now))
        XCTAssertEqual(JournalRecord.from(.verdictChanged(from: .holding, to: .cantJudge(.stale)), at: now),
                       .verdict(from: .holding, to: .cantJudge, reason: .stale))
        let reading = GPSReading(mode: .threeD, position: harbour, accuracy: 4, received: now)
        XCTAssertEqual(JournalRecord.from(.track(reading, distance: 7), at: now), .trackFix(TrackFix(position: harbour, accuracy: 4, distance: 7)))
    }

    func testTrackPace() {
        XCTAssertEqual(TrackPace(verdict: .holding, alarm: .armed), .calm)
        XCTAssertEqual(TrackPace(verdict: .cantJudge(.stale), alarm: .off), .calm)
        XCTAssertEqual(TrackPace(verdict: .checking(progress: 0.2), alarm: .armed), .attention)
        XCTAssertEqual(TrackPace(verdict: .dragging, alarm: .off), .attention)
        XCTAssertEqual(TrackPace(verdict: .holding, alarm: .ringing(episode: 1)), .attention)
        XCTAssertEqual(TrackPace(verdict: .holding, alarm: .snoozed(until: .zero, episode: 1)), .attention)
    }

    /// Issue 15: a crash restart showed only as "Box started". Each boot record says how the run
    /// before it ended, as the journal found it: no journal, a shutdown record last (a clean
    /// stop), or none (a power cut, a crash, a kill), and "not known" for a version 1 journal.
    func testABootRecordSaysWhetherTheRunBeforeItShutDown() throws {
        let fs = SimulatedFileSystem()
        func boots() throws -> [PreviousStop] {
            try fs.list(testDirectory).sorted().flatMap { name in
                scanRecords(fs.contents(testDirectory + "/" + name) ?? []).records.compactMap { r -> PreviousStop? in
                    if case .boot(let after) = r { after } else { nil }
                }
            }
        }
        let (first, r1) = open(fs, at: 0)
        XCTAssertEqual(r1.previousStop, .firstStart)
        first.batch(.faultCleared(.gpsd), pace: .calm, at: stamp(1))
        XCTAssertEqual(first.shutdown(at: stamp(2)).saved, .saved, "the shutdown record is synced, with the batch")
        first.close()
        fs.simulateCrash()  // only what reached the card counts
        let (second, r2) = open(fs, at: 3)
        XCTAssertEqual(r2.previousStop, .clean)
        XCTAssertEqual(second.commit([.radius(40)], at: stamp(4)).saved, .saved)
        fs.simulateCrash()  // a power cut: no shutdown record
        let (third, r3) = open(fs, at: 5)
        XCTAssertEqual(r3.previousStop, .unclean)
        XCTAssertEqual(r3.memory.radius, 40, "and what was saved is back")
        // A shutdown that never reached the card is no clean stop.
        fs.inject(.io, on: [.sync])
        guard case .notSaved = third.shutdown(at: stamp(6)).saved else { return XCTFail("a failed sync is not saved") }
        third.close()
        fs.clearInjections()
        fs.simulateCrash()
        let (_, r4) = open(fs, at: 7)
        XCTAssertEqual(r4.previousStop, .unclean)
        XCTAssertEqual(try boots(), [.firstStart, .clean, .unclean, .unclean], "each boot record says the same")

        // A start whose segment never reached the card (created, power lost before its sync).
        let empty = SimulatedFileSystem()
        empty.setContents(segmentPath(1), encode([.segment(version: 2, sequence: 1), .snapshot(.fresh()), .boot(after: .firstStart), .shutdown]))
        empty.setContents(segmentPath(2), [])
        XCTAssertEqual(open(empty, at: 8).1.previousStop, .unclean)
        // A journal of version 1 wrote no shutdown records: its end says nothing.
        let old = SimulatedFileSystem()
        old.setContents(segmentPath(1), encode([.segment(version: 1, sequence: 1), .snapshot(.fresh()), .boot(after: .unknown), .radius(35)]))
        XCTAssertEqual(open(old, at: 9).1.previousStop, .unknown)
    }
}

