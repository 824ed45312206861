import Posix
import Glibc
import WatchCore
import XCTest
@testable import Journal

/// The real file system, in a temporary directory.
final class PosixFileSystemTests: XCTestCase {
    var dir = ""
    let fs = PosixFileSystem()

    override func setUp() {
        var template = Array("/tmp/journal-test-XXXXXX".utf8CString)
        dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    override func tearDown() {
        for name in (try? fs.list(dir)) ?? [] { _ = unlink(dir + "/" + name) }
        _ = rmdir(dir + "/sub/deeper")
        _ = rmdir(dir + "/sub")
        _ = rmdir(dir)
    }

    func testFileOperations() throws {
        let path = dir + "/a.log"
        let file = try fs.create(path)
        try file.append([1, 2, 3])
        try file.append(Array(repeating: 9, count: 100_000))
        try file.syncData()
        file.close()
        XCTAssertEqual(try fs.size(path), 100_003)
        XCTAssertEqual(try fs.read(path).prefix(4), [1, 2, 3, 9])
        let again = try fs.openForAppending(path)
        try again.truncate(to: 2)
        try again.append([7])
        try again.syncData()
        again.close()
        XCTAssertEqual(try fs.read(path), [1, 2, 7])
        try fs.rename(path, to: dir + "/b.log")
        try fs.syncDirectory(dir)
        XCTAssertEqual(try fs.list(dir), ["b.log"])
        try Files.writeAtomically([4, 5], to: dir + "/status", durable: true)
        XCTAssertEqual(try fs.read(dir + "/status"), [4, 5])
        try fs.unlink(dir + "/b.log")
        XCTAssertEqual(try fs.list(dir), ["status"])
        XCTAssertGreaterThan(try fs.freeSpace(dir), 0)
        try fs.makeDirectory(dir + "/sub/deeper")
        try fs.makeDirectory(dir + "/sub/deeper")
        XCTAssertEqual(try fs.list(dir + "/sub"), ["deeper"])
    }

    func testErrorsAreTypedErrnos() {
        XCTAssertThrowsError(try fs.read(dir + "/missing")) {
            XCTAssertEqual($0 as? FileSystemError, FileSystemError(.read, dir + "/missing", .notFound))
        }
        XCTAssertThrowsError(try fs.create(dir)) { XCTAssertEqual(($0 as? FileSystemError)?.errno, .exists) }
        XCTAssertThrowsError(try fs.list(dir + "/nope")) { XCTAssertEqual(($0 as? FileSystemError)?.errno, .notFound) }
        XCTAssertEqual(FileSystemError(.append, "/x", .noSpace).description, "append /x: No space left on device")
        XCTAssertEqual(JournalFailure(FileSystemError(.sync, "/x", .readOnly)).kind, .readOnly)
        XCTAssertEqual(JournalFailure(FileSystemError(.sync, "/x", .io)).kind, .ioError)
    }

    func testJournalOnTheRealFileSystem() throws {
        let (journal, r0) = Journal.open(directory: dir + "/journal", fileSystem: fs, at: stamp(0))
        XCTAssertEqual(r0.notes, [.missing])
        XCTAssertEqual(journal.commit([.mark(anchor: harbour, how: .here), .radius(33), .arm, .alarmStart(episode: 1)], at: stamp(1)).saved, .saved)
        journal.track(TrackFix(position: harbour, accuracy: 2, distance: 1), pace: .attention, at: stamp(2))
        XCTAssertEqual(journal.flush(at: stamp(3)).saved, .saved)
        journal.close()
        let (_, r1) = Journal.open(directory: dir + "/journal", fileSystem: fs, at: stamp(10))
        XCTAssertEqual(r1.notes, [])
        XCTAssertEqual(r1.memory, WatchMemory(anchor: harbour, radius: 33, armed: true, ringingEpisode: 1, lastEpisode: 1))
        for name in try fs.list(dir + "/journal") { _ = unlink(dir + "/journal/" + name) }
        _ = rmdir(dir + "/journal")
    }
}
