#if canImport(Glibc)
import Glibc
#endif
@testable import Journal
import JournalTestSupport
@testable import WatchCore
import XCTest

/// The journal on its own thread: who wakes whom, and what a completion says.
final class JournalWriterTests: XCTestCase {
    static let origin = Coordinate(latitude: 54, longitude: 13)

    func waitForCompletions(_ w: JournalWriter, file: StaticString = #filePath, line: UInt = #line) -> [JournalWriter.Completion] {
        var p = pollfd(fd: w.completionFD!, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 5000), 1, "the writer answers through its pipe", file: file, line: line)
        return w.takeCompletions()
    }

    func testTrackFixesOnlyQueueAndADecisionIsSyncedWithThemAndAnsweredThroughThePipe() {
        let fs = SimulatedFileSystem()
        let t0 = Instant(seconds: 10)
        let opened = Journal.open(directory: "/j", fileSystem: fs, at: Stamp(monotonic: t0, wall: WallTime(seconds: 1e9)))
        let w = JournalWriter(journal: opened.journal)
        XCTAssertNotNil(w.completionFD)
        let syncsAtStart = fs.dataSyncs
        for i in 0..<5 {
            let r = GPSReading(mode: .threeD, position: Self.origin, accuracy: 3, received: t0 + .seconds(Double(i)))
            XCTAssertNil(w.record([.track(r, distance: 0)], pace: .attention, at: Stamp(monotonic: t0 + .seconds(Double(i)), wall: WallTime(seconds: 1e9))))
        }
        var p = pollfd(fd: w.completionFD!, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 200), 0, "quiet records wake nobody")
        XCTAssertEqual(w.nextDeadline, t0 + JournalLimits().attentionFlushAge, "the flush age counts from the first one queued")

        let receipt = Receipt(decision: .mark(.here), anchor: Self.origin, radius: 30, alarm: .off, until: nil)
        let ticket = w.record([.accepted(receipt, chirp: .mark)], pace: .attention, at: Stamp(monotonic: t0 + .seconds(6), wall: WallTime(seconds: 1e9)))
        XCTAssertNotNil(ticket, "a decision gets a ticket")
        let done = waitForCompletions(w)
        XCTAssertEqual(done.map(\.ticket), [ticket])
        XCTAssertEqual(done.first?.saved, .saved)
        XCTAssertGreaterThan(w.stats.dataSyncs, 0)
        XCTAssertGreaterThan(fs.dataSyncs, syncsAtStart)
        XCTAssertEqual(w.stats.tracksKept, 5, "the queued fixes went to the card with the decision, in order")

        w.close(at: Stamp(monotonic: t0 + .seconds(7), wall: WallTime(seconds: 1e9)))
        XCTAssertNil(w.record([.accepted(receipt, chirp: .mark)], pace: .calm, at: Stamp(monotonic: t0 + .seconds(8), wall: WallTime(seconds: 1e9))),
                     "a closed journal takes nothing, so nothing is confirmed")
    }

    func testAFailedSyncIsACompletionThatSaysNotSavedWithTheJournalFault() {
        let fs = SimulatedFileSystem()
        let t0 = Instant(seconds: 10)
        let opened = Journal.open(directory: "/j", fileSystem: fs, at: Stamp(monotonic: t0, wall: WallTime(seconds: 1e9)))
        let w = JournalWriter(journal: opened.journal)
        fs.inject(.io, on: [.sync])
        let ticket = w.record([.accepted(Receipt(decision: .arm, anchor: Self.origin, radius: 30, alarm: .armed, until: nil), chirp: .arm)], pace: .calm,
                              at: Stamp(monotonic: t0, wall: WallTime(seconds: 1e9)))
        let done = waitForCompletions(w)
        XCTAssertEqual(done.first?.ticket, ticket)
        guard case .notSaved? = done.first?.saved else { return XCTFail("\(done)") }
        XCTAssertTrue(done.first?.events.contains { if case .faultRaised(let f) = $0 { f.kind == .journal } else { false } } ?? false)
        XCTAssertNotNil(w.nextDeadline, "the loop is told when to retry")
        w.close(at: Stamp(monotonic: t0 + .seconds(1), wall: WallTime(seconds: 1e9)))
    }

    /// Every record of the journal that survives a power cut now.
    func durableRecords(_ fs: SimulatedFileSystem) -> [JournalRecord] {
        fs.simulateCrash()
        return ((try? fs.list("/j")) ?? []).sorted().flatMap { scanRecords(fs.contents("/j/" + $0) ?? []).records }
    }

    /// Issue 15: a fault raised a minute ago was missing from the recap until a batch flush (up to
    /// 300 s when calm). A fault is now on the card as soon as the writer has it; a second one
    /// within the attention flush age waits for it (a flapping fault must not wear the card),
    /// and the loop is told when.
    func testAFaultRaisedOrClearedIsOnTheCardAtOnceAndAFlappingOneAtMostOncePerAttentionAge() {
        let fs = SimulatedFileSystem()
        let t0 = Instant(seconds: 10)
        func at(_ s: Double) -> Stamp { Stamp(monotonic: t0 + .seconds(s), wall: WallTime(seconds: 1e9 + s)) }
        let opened = Journal.open(directory: "/j", fileSystem: fs, at: at(0))
        let w = JournalWriter(journal: opened.journal)
        let fix = GPSReading(mode: .threeD, position: Self.origin, accuracy: 3, received: t0)
        XCTAssertNil(w.record([.track(fix, distance: 0)], pace: .calm, at: at(1)))
        var p = pollfd(fd: w.completionFD!, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 200), 0, "a track fix alone wakes nobody")
        let lost = Fault(.gpsd, "GPS: gpsd is not answering")
        XCTAssertNil(w.record([.faultRaised(lost)], pace: .calm, at: at(2)), "a fault confirms nothing: no ticket")
        _ = waitForCompletions(w)
        let first = durableRecords(fs)
        XCTAssertTrue(first.contains(.faultRaised(lost)), "the fault survives a power cut at once: \(first)")
        XCTAssertTrue(first.contains { if case .trackFix = $0 { true } else { false } }, "with the batch before it, in order")

        // Cleared 3 s later: due 10 s after the sync the fault brought about, and the loop knows.
        XCTAssertNil(w.record([.faultCleared(.gpsd)], pace: .calm, at: at(5)))
        _ = waitForCompletions(w)
        XCTAssertFalse(durableRecords(fs).contains(.faultCleared(.gpsd)), "not a second sync within 10 s")
        XCTAssertEqual(w.nextDeadline, t0 + .seconds(2) + JournalLimits().attentionFlushAge,
                       "the loop's deadline is the journal's: 10 s after the last prompt sync, not the calm 300 s")
        w.flushIfDue(at: at(12))
        _ = waitForCompletions(w)
        XCTAssertTrue(durableRecords(fs).contains(.faultCleared(.gpsd)), "on the card when its time came")
        w.close(at: at(13))
    }
}

