import WatchCore
import XCTest
@testable import Journal
import JournalTestSupport

/// Each recovery rule of Docs/journal-format.md against bytes damaged on purpose.
final class RecoveryRuleTests: XCTestCase {
    let records: [JournalRecord] = [
        .segment(version: 1, sequence: 1), .snapshot(.fresh()), .boot(after: .unknown),
        .mark(anchor: harbour, how: .here), .radius(40), .arm,
        .trackFix(TrackFix(position: harbour, accuracy: 3, distance: 2)),
        .alarmStart(episode: 1), .snooze(episode: 1, length: .seconds(300)),
    ]

    /// Rule 1 and 2 and 4: a cut anywhere in the last records keeps every whole record before
    /// the cut, reports the rest as a torn tail, and never invents a record.
    func testTruncationAtEveryByteOfTheLastRecords() {
        let bytes = encode(records)
        let ends = records.indices.map { encode(Array(records[...$0])).count }
        let from = ends[records.count - 4]
        for cut in from...bytes.count {
            let (got, summary) = scanRecords(Array(bytes[..<cut]))
            let whole = ends.filter { $0 <= cut }.count
            XCTAssertEqual(got, Array(records[..<whole]), "cut at \(cut)")
            XCTAssertEqual(summary.validEnd, whole == 0 ? 0 : ends[whole - 1])
            XCTAssertEqual(summary.tailBytes, cut - summary.validEnd)
            XCTAssertEqual(summary.lostBytes, 0, "a torn tail is a crash, not lost bytes")
            if cut == summary.validEnd {
                XCTAssertTrue(summary.notes.isEmpty)
            } else {
                XCTAssertEqual(summary.notes, [.tornTail(segment: "test", offset: summary.validEnd, bytes: cut - summary.validEnd)])
            }
        }
    }

    /// Rule 3: one flipped bit anywhere in a middle record drops that record only, reports
    /// exactly its bytes as lost, and keeps every record after it.
    func testFlippedBitsDropOneRecordAndReportItsBytes() {
        let bytes = encode(records)
        let ends = records.indices.map { encode(Array(records[...$0])).count }
        let victim = 4
        let start = ends[victim - 1], end = ends[victim]
        var tried = 0
        for byte in start..<end {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[byte] ^= 1 << bit
                let (got, summary) = scanRecords(damaged)
                var expected = records
                expected.remove(at: victim)
                XCTAssertEqual(got, expected, "bit \(bit) of byte \(byte)")
                XCTAssertEqual(summary.notes, [.bytesLost(segment: "test", offset: start, bytes: end - start)])
                tried += 1
            }
        }
        XCTAssertEqual(tried, (end - start) * 8)
    }

    /// Rule 3, length damage: a length made larger or smaller is never trusted.
    func testDamagedLengthIsNotTrusted() {
        let bytes = encode(records)
        let ends = records.indices.map { encode(Array(records[...$0])).count }
        for newLength: UInt16 in [0, 1, 7, 200, 4096, 65535] {
            var damaged = bytes
            damaged[ends[2] + 4] = UInt8(newLength & 0xFF)
            damaged[ends[2] + 5] = UInt8(newLength >> 8)
            let (got, summary) = scanRecords(damaged)
            var expected = records
            expected.remove(at: 3)
            XCTAssertEqual(got, expected, "length \(newLength)")
            XCTAssertEqual(summary.lostBytes, ends[3] - ends[2])
        }
    }

    /// Rule 4: zeros where data should be (a file extended without its data) are cut as a zeroed tail.
    func testZeroedTails() {
        let bytes = encode(records)
        for zeros in [1, 7, 8, 9, 100, 4096] {
            let (got, summary) = scanRecords(bytes + [UInt8](repeating: 0, count: zeros))
            XCTAssertEqual(got, records)
            XCTAssertEqual(summary.notes, [.zeroedTail(segment: "test", offset: bytes.count, bytes: zeros)])
        }
        // Zeros over the end of the last record: that record goes, the rest stays.
        var zeroed = bytes
        for i in (bytes.count - 20)..<bytes.count { zeroed[i] = 0 }
        let (got, summary) = scanRecords(zeroed)
        XCTAssertEqual(got, Array(records.dropLast()))
        XCTAssertEqual(summary.notes.count, 1)
        guard case .tornTail = summary.notes[0] else { return XCTFail("\(summary.notes)") }
    }

    /// Garbage after the last record is a torn tail; whole records after garbage are kept.
    func testGarbageAppendedAndInserted() {
        var rng = SplitMix64(seed: 7)
        let bytes = encode(records)
        for size in [1, 5, 8, 64, 1000, 20_000] {
            let garbage = (0..<size).map { _ in UInt8.random(in: 1...255, using: &rng) }
            let (got, summary) = scanRecords(bytes + garbage)
            XCTAssertEqual(got, records, "\(size) bytes of garbage")
            XCTAssertEqual(summary.notes, [.tornTail(segment: "test", offset: bytes.count, bytes: size)])

            let more: [JournalRecord] = [.disarm, .release]
            let (got2, summary2) = scanRecords(bytes + garbage + encode(more))
            XCTAssertEqual(got2, records + more)
            XCTAssertEqual(summary2.notes, [.bytesLost(segment: "test", offset: bytes.count, bytes: size)])
        }
    }

    /// Rule 5: a whole record of an unknown type is skipped and reported, reading goes on.
    func testUnknownTypesAreSkipped() {
        let unknown = RecordFrame.encode(type: 99, payload: [UInt8](repeating: 1, count: 20))
        let bytes = encode(Array(records[..<3])) + unknown + encode(Array(records[3...]))
        let (got, summary) = scanRecords(bytes)
        XCTAssertEqual(got, records)
        XCTAssertEqual(summary.notes, [.unknownType(segment: "test", offset: encode(Array(records[..<3])).count, type: 99)])
        XCTAssertFalse(RecoveryNote.unknownType(segment: "s", offset: 0, type: 99).isFault)
    }

    func testTypeZeroIsNeverARecordEvenWithAGoodChecksum() {
        var frame = RecordFrame.encode(type: 1, payload: [])
        frame[6] = 0
        frame[7] = RecordFrame.headerCheck(frame[4], frame[5], 0)
        let crc = CRC32C.checksum(frame[4...])
        for i in 0..<4 { frame[i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        XCTAssertNil(RecordFrame.whole(in: frame, at: 0))
    }

    // MARK: - Through Journal.open, with files

    /// A first start (issue 15): "Is the log saving?" said No on a new box. A new journal is
    /// reported, and is not a failing one.
    func testMissingJournalStartsFreshAndIsNoFault() {
        let fs = SimulatedFileSystem()
        let (journal, recovery) = Journal.open(directory: testDirectory, fileSystem: fs, fresh: .fresh(radius: 25), at: stamp(0))
        XCTAssertEqual(recovery.memory, .fresh(radius: 25))
        XCTAssertEqual(recovery.notes, [.missing])
        XCTAssertNil(recovery.fault)
        XCTAssertNil(journal.failure)
        XCTAssertEqual(try fs.list(testDirectory), [SegmentName.name(1)], "a fresh journal is written at once")
    }

    func testUnreadableJournalStartsFreshWithAFaultThatPushes() {
        let fs = SimulatedFileSystem()
        fs.setContents(segmentPath(3), [UInt8](repeating: 0x5A, count: 300))
        let (_, recovery) = Journal.open(directory: testDirectory, fileSystem: fs, at: stamp(0))
        XCTAssertEqual(recovery.memory, .fresh())
        XCTAssertTrue(recovery.notes.contains(.unreadable))
        XCTAssertEqual(recovery.fault?.pushes, true)
        XCTAssertEqual(recovery.fault?.message, "Journal: can't read the old journal, started a new one")
        XCTAssertNotNil(fs.contents(segmentPath(4)), "the next sequence, never a reused name")
    }

    /// Issue 15: recovery read a segment whole, however large. A file past the largest segment
    /// the box writes is read only so far, reported, and never cut.
    func testASegmentLargerThanAnyTheBoxWritesIsReadOnlySoFarAndNeverCut() {
        XCTAssertEqual(JournalLimits().maxSegmentRead, 65 << 20, "64 MiB, the largest segment_bytes, and 1 MiB more")
        let fs = SimulatedFileSystem()
        let good = encode(records)
        var limits = JournalLimits()
        limits.maxSegmentRead = good.count + 64   // small, so the test reads little
        let size = limits.maxSegmentRead + 100
        fs.setContents(segmentPath(1), good + [UInt8](repeating: 0, count: size - good.count))
        let (_, recovery) = Journal.open(directory: testDirectory, limits: limits, fileSystem: fs, at: stamp(0))
        XCTAssertEqual(recovery.memory, WatchMemory(anchor: harbour, radius: 40, armed: true, ringingEpisode: 1, lastEpisode: 1, snoozed: true),
                       "what was read is restored")
        XCTAssertTrue(recovery.notes.contains(.oversized(segment: SegmentName.name(1), bytes: size, read: limits.maxSegmentRead)),
                      "\(recovery.notes)")
        XCTAssertEqual(recovery.fault?.kind, .journal)
        XCTAssertEqual(fs.contents(segmentPath(1))?.count, size, "never truncated: its end was not read")
        let notes = JournalReader(directory: testDirectory, fileSystem: fs, readLimit: limits.maxSegmentRead).forEach { _ in true }
        XCTAssertTrue(notes.contains { if case .oversized = $0 { true } else { false } }, "the reader bounds its read too")
    }

    func testASegmentThatCannotBeReadFallsBackToTheOneBefore() {
        let fs = SimulatedFileSystem()
        fs.setContents(segmentPath(1), encode([.segment(version: 1, sequence: 1), .snapshot(.fresh()), .mark(anchor: harbour, how: .here)]))
        fs.setContents(segmentPath(2), encode([.segment(version: 1, sequence: 2), .snapshot(WatchMemory(anchor: harbour, radius: 60))]))
        fs.inject(.io, on: [.read], times: 1)  // newest first: the newest fails
        let (_, recovery) = Journal.open(directory: testDirectory, fileSystem: fs, at: stamp(0))
        XCTAssertEqual(recovery.memory.anchor, harbour)
        XCTAssertEqual(recovery.memory.radius, 30, "segment 2 unreadable: the state of segment 1")
        XCTAssertTrue(recovery.notes.contains { if case .unreadableSegment = $0 { true } else { false } })
        XCTAssertEqual(recovery.fault?.kind, .journal)
    }

    func testTornTailIsCutOnceAndReportedOnce() throws {
        let fs = SimulatedFileSystem()
        let good = encode(records)
        fs.setContents(segmentPath(1), good + Array(encode([.disarm]).prefix(10)))
        let (j1, r1) = Journal.open(directory: testDirectory, fileSystem: fs, at: stamp(0))
        XCTAssertEqual(r1.notes, [.tornTail(segment: SegmentName.name(1), offset: good.count, bytes: 10)])
        XCTAssertNil(r1.fault, "a torn tail is what a power cut leaves, not a fault")
        XCTAssertEqual(r1.memory, WatchMemory(anchor: harbour, radius: 40, armed: true, ringingEpisode: 1, lastEpisode: 1, snoozed: true))
        XCTAssertEqual(fs.contents(segmentPath(1)), good, "truncated to the last whole record")
        j1.close()
        let (_, r2) = Journal.open(directory: testDirectory, fileSystem: fs, at: stamp(1))
        XCTAssertEqual(r2.notes, [])
        XCTAssertEqual(r2.memory, r1.memory)
    }

    func testBytesLostInTheMiddleRaiseAFaultButKeepWhatFollows() {
        let fs = SimulatedFileSystem()
        var bytes = encode(records)
        let ends = records.indices.map { encode(Array(records[...$0])).count }
        bytes[ends[4] + 10] ^= 0x40  // damages the arm record
        fs.setContents(segmentPath(1), bytes)
        let (_, recovery) = Journal.open(directory: testDirectory, fileSystem: fs, at: stamp(0))
        XCTAssertEqual(recovery.notes, [.bytesLost(segment: SegmentName.name(1), offset: ends[4], bytes: ends[5] - ends[4])])
        XCTAssertEqual(recovery.fault?.message, "Journal: \(ends[5] - ends[4]) bytes lost to a bad checksum at \(SegmentName.name(1)) offset \(ends[4])")
        XCTAssertEqual(recovery.memory.ringingEpisode, 1, "the records after the damage still count")
        XCTAssertTrue(recovery.memory.armed, "an alarm start implies armed even when the arm record was lost")
    }

    func testOtherFilesInTheDirectoryAreIgnored() {
        let fs = SimulatedFileSystem()
        fs.setContents(testDirectory + "/status.json", Array("{}".utf8))
        fs.setContents(testDirectory + "/journal-1.log", [1, 2, 3])
        let (_, recovery) = Journal.open(directory: testDirectory, fileSystem: fs, at: stamp(0))
        XCTAssertEqual(recovery.notes, [.missing])
        XCTAssertEqual(fs.contents(testDirectory + "/status.json"), Array("{}".utf8))
    }
}
