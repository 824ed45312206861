import WatchCore
import XCTest
@testable import Journal

final class RecordCodingTests: XCTestCase {
    func testEveryTypeRoundTrips() {
        XCTAssertEqual(Set(sampleRecords.map(\.type)), Set(RecordType.allCases), "one sample per type")
        for (i, record) in sampleRecords.enumerated() {
            let s = stamp(Double(i) + 0.123456789)
            let decoded = JournalRecord.decode(type: record.type.rawValue, payload: record.payload(at: s)[...])
            XCTAssertEqual(try decoded.get(), StampedRecord(record, at: s), "\(record)")
        }
    }

    /// A snapshot keeps that its ringing episode was snoozed (flag bit 3), so the words after a
    /// restart say so even when the snooze's own record is in an older segment.
    func testASnapshotKeepsThatTheEpisodeWasSnoozed() throws {
        var m = WatchMemory(anchor: harbour, radius: 35.5, armed: true, ringingEpisode: 3, lastEpisode: 4)
        m.snoozed = true
        let back = try JournalRecord.decode(type: 2, payload: JournalRecord.snapshot(m).payload(at: stamp(1))[...]).get()
        XCTAssertEqual(back.record, .snapshot(m))
        var replayed = WatchMemory.fresh()
        replayed.apply(back.record)
        replayed.apply(.alarmStart(episode: 4))
        XCTAssertFalse(replayed.snoozed, "a new episode starts unanswered")
    }

    func testTrackFixKeepsCentimetres() throws {
        let fix = TrackFix(position: Coordinate(latitude: 50.12345678, longitude: -5.98765432), accuracy: 2.5, distance: 17.125)
        let back = try JournalRecord.decode(type: 15, payload: JournalRecord.trackFix(fix).payload(at: stamp(0))[...]).get()
        guard case .trackFix(let f) = back.record else { return XCTFail("\(back)") }
        XCTAssertLessThan(Geodesy.distance(f.position, fix.position).value, 0.02)
        XCTAssertEqual(f.accuracy, 2.5)
        XCTAssertEqual(f.distance, 17.125)
        XCTAssertEqual(JournalRecord.trackFix(fix).payload(at: stamp(0)).count + 8, 40, "the size the format doc promises")
    }

    func testTrailingBytesAreIgnoredForLaterVersions() throws {
        let payload = JournalRecord.radius(50).payload(at: stamp(1)) + [1, 2, 3, 4]
        XCTAssertEqual(try JournalRecord.decode(type: 6, payload: payload[...]).get().record, .radius(50))
    }

    func testShortPayloadsAreMalformed() {
        for record in sampleRecords {
            let payload = record.payload(at: stamp(1))
            for cut in 0..<payload.count {
                let r = JournalRecord.decode(type: record.type.rawValue, payload: payload[..<cut])
                // Cutting a fault message's text at its end shortens the text, never misreads it.
                if case .success(let s) = r, case .faultRaised = record, cut >= 20 { XCTAssertNotEqual(s.record, record); continue }
                // A boot cut after its stamp is a version 1 boot: how the run before ended is not known.
                if case .boot = record, cut == JournalConstants.stampSize {
                    XCTAssertEqual(try? r.get().record, .boot(after: .unknown), "\(record) cut at \(cut)")
                    continue
                }
                XCTAssertEqual(r, .failure(.malformed(record.type)), "\(record) cut at \(cut)")
            }
        }
    }

    func testOutOfRangeValuesAreMalformed() {
        func payload(_ build: (inout ByteWriter) -> Void) -> ArraySlice<UInt8> {
            var w = ByteWriter()
            w.i64(1); w.i64(2)
            build(&w)
            return w.bytes[...]
        }
        XCTAssertEqual(JournalRecord.decode(type: 6, payload: payload { $0.f64(.nan) }), .failure(.malformed(.radius)))
        XCTAssertEqual(JournalRecord.decode(type: 6, payload: payload { $0.f64(-3) }), .failure(.malformed(.radius)))
        XCTAssertEqual(JournalRecord.decode(type: 9, payload: payload { $0.u32(0) }), .failure(.malformed(.alarmStart)))
        XCTAssertEqual(JournalRecord.decode(type: 4, payload: payload { $0.f64(91); $0.f64(0); $0.u8(0) }), .failure(.malformed(.mark)))
        XCTAssertEqual(JournalRecord.decode(type: 4, payload: payload { $0.f64(50); $0.f64(0); $0.u8(9) }), .failure(.malformed(.mark)))
        XCTAssertEqual(JournalRecord.decode(type: 12, payload: payload { $0.u8(2); $0.u8(5); $0.u8(0) }), .failure(.malformed(.verdict)))
        XCTAssertEqual(JournalRecord.decode(type: 14, payload: payload { $0.u8(99) }), .failure(.malformed(.faultCleared)))
        XCTAssertEqual(JournalRecord.decode(type: 13, payload: payload { $0.u8(9); $0.u8(1); $0.u16(2); $0.u8(0xC3); $0.u8(0x28) }),
                       .failure(.malformed(.faultRaised)), "invalid UTF-8")
        // Ringing flag without an episode, and an episode past the last one handed out.
        XCTAssertEqual(JournalRecord.decode(type: 2, payload: payload {
            $0.u8(4); $0.f64(0); $0.f64(0); $0.f64(30); $0.u32(0); $0.u32(0)
        }), .failure(.malformed(.snapshot)))
        XCTAssertEqual(JournalRecord.decode(type: 2, payload: payload {
            $0.u8(4); $0.f64(0); $0.f64(0); $0.f64(30); $0.u32(5); $0.u32(4)
        }), .failure(.malformed(.snapshot)))
    }

    func testUnknownTypeIsReportedNotGuessed() {
        XCTAssertEqual(JournalRecord.decode(type: 200, payload: [0, 1, 2][...]), .failure(.unknownType(200)))
    }

    func testLongFaultMessagesAreCutAtACharacterBoundary() throws {
        let message = "Siren: " + String(repeating: "é", count: 2000)
        let payload = JournalRecord.faultRaised(Fault(.siren, message)).payload(at: stamp(0))
        guard case .faultRaised(let f) = try JournalRecord.decode(type: 13, payload: payload[...]).get().record else {
            return XCTFail()
        }
        XCTAssertLessThanOrEqual(f.message.utf8.count, JournalConstants.maxTextBytes)
        XCTAssertTrue(message.hasPrefix(f.message))
    }

    func testFrameLayoutMatchesTheSpec() {
        let frame = RecordFrame.encode(type: 7, payload: [1, 2, 3])
        XCTAssertEqual(frame.count, 11)
        XCTAssertEqual(Array(frame[4...6]), [3, 0, 7], "length LE, then type")
        XCTAssertEqual(frame[7], UInt8(truncatingIfNeeded: CRC32C.checksum([3, 0, 7])))
        let crc = UInt32(frame[0]) | UInt32(frame[1]) << 8 | UInt32(frame[2]) << 16 | UInt32(frame[3]) << 24
        XCTAssertEqual(crc, CRC32C.checksum(frame[4...]))
    }

    func testSegmentNames() {
        XCTAssertEqual(SegmentName.name(42), "journal-000000000000002a.log")
        XCTAssertEqual(SegmentName.sequence("journal-000000000000002a.log"), 42)
        XCTAssertNil(SegmentName.sequence("journal-00000000000002a.log"))
        XCTAssertNil(SegmentName.sequence("journal-000000000000002A.log"))
        XCTAssertNil(SegmentName.sequence("journal-000000000000002a.log.tmp"))
        XCTAssertNil(SegmentName.sequence("status.json"))
    }
}
