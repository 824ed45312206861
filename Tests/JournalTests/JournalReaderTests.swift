import WatchCore
import XCTest
@testable import Journal
import JournalTestSupport

final class JournalReaderTests: XCTestCase {
    /// A boat moving north 1 m per second, one fix every 10 s, across two boots.
    func journal() -> SimulatedFileSystem {
        let fs = SimulatedFileSystem()
        let (j, _) = Journal.open(directory: testDirectory, fileSystem: fs, at: stamp(0))
        _ = j.commit([.mark(anchor: harbour, how: .here)], at: stamp(1))
        for i in 1...60 {
            let t = Double(i * 10)
            j.track(TrackFix(position: Geodesy.destination(from: harbour, bearing: 0, distance: Meters(t)), accuracy: 3, distance: nil),
                    pace: .calm, at: stamp(t))
        }
        _ = j.flush(at: stamp(601))
        j.close()
        _ = Journal.open(directory: testDirectory, fileSystem: fs, at: stamp(700))
        return fs
    }

    func testIteratesRecordsInOrderWithBoots() {
        let reader = JournalReader(directory: testDirectory, fileSystem: journal())
        var entries: [JournalEntry] = []
        let notes = reader.forEach { entries.append($0); return true }
        XCTAssertEqual(notes, [])
        XCTAssertEqual(entries.filter { if case .boot = $0.record { true } else { false } }.map(\.boot), [1, 2])
        XCTAssertEqual(entries.filter { if case .trackFix = $0.record { true } else { false } }.count, 60)
        XCTAssertEqual(entries.map(\.stamp.wall), entries.map(\.stamp.wall).sorted())
    }

    func testTimeRangeAndEarlyStop() {
        let reader = JournalReader(directory: testDirectory, fileSystem: journal())
        var n = 0
        reader.forEach(wall: stamp(100).wall...stamp(200).wall) { entry in
            if case .trackFix = entry.record { n += 1 }
            return true
        }
        XCTAssertEqual(n, 11)
        var seen = 0
        reader.forEach { _ in seen += 1; return seen < 3 }
        XCTAssertEqual(seen, 3)
    }

    func testWhereWasTheBoatAtWallTime() throws {
        let reader = JournalReader(directory: testDirectory, fileSystem: journal())
        let exact = try XCTUnwrap(reader.position(at: stamp(300).wall))
        XCTAssertEqual(Geodesy.distance(exact.position, Geodesy.destination(from: harbour, bearing: 0, distance: 300)).value, 0, accuracy: 0.05)
        let between = try XCTUnwrap(reader.position(at: stamp(305).wall))
        XCTAssertEqual(Geodesy.distance(between.position, harbour).value, 305, accuracy: 0.1, "interpolated")
        XCTAssertNil(reader.position(at: stamp(5000).wall), "nothing near that time")
        let edge = try XCTUnwrap(reader.position(at: stamp(620).wall))
        XCTAssertEqual(edge.wall, stamp(600).wall, "the nearest within the tolerance")
    }

    func testMissingJournalReadsAsMissing() {
        XCTAssertEqual(JournalReader(directory: "/nowhere", fileSystem: SimulatedFileSystem()).forEach { _ in true }, [.missing])
    }
}
