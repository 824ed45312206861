import Glibc
import Posix
import WatchCore
import XCTest

/// The room's promises: one EINTR policy, a descriptor that closes once, whole files read
/// within a bound and replaced atomically, the clocks, poll, number and XML text.
final class PosixTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = try Files.makeTemporaryDirectory("/tmp/posix-tests-")
    }

    override func tearDown() {
        for name in (try? Files.list(dir)) ?? [] { try? Files.unlink(dir + "/" + name) }
        try? Files.removeDirectory(dir)
    }

    func testAnInterruptedCallIsRetriedAndAnyOtherFailureIsTyped() throws {
        var calls = 0
        let r = try Syscall.check("read") { () -> Int in
            calls += 1
            if calls == 1 {
                Errno.current = .interrupted
                return -1
            }
            return 5
        }
        XCTAssertEqual(r, 5)
        XCTAssertEqual(calls, 2, "EINTR is retried once the signal is handled")
        XCTAssertThrowsError(try Syscall.check("open /x") { () -> Int32 in
            Errno.current = .notFound
            return -1
        }) { error in
            XCTAssertEqual(error as? SystemError, SystemError(call: "open /x", errno: .notFound))
            XCTAssertEqual("\(error)", "open /x: No such file or directory")
        }
        // A non-blocking call that would block is nil, not an error.
        XCTAssertNil(try Syscall.attempt("recv") { () -> Int in
            Errno.current = .wouldBlock
            return -1
        })
    }

    func testADescriptorClosesOnceAndNeverSomeoneElses() throws {
        let first = try FileDescriptor.open(dir + "/a", [.writeOnly, .create])
        let number = first.rawValue
        first.close()
        XCTAssertFalse(first.isOpen)
        // The kernel hands the lowest free number to the next open: most likely the same.
        let second = try FileDescriptor.open(dir + "/b", [.writeOnly, .create])
        first.close()
        XCTAssertTrue(second.isOpen)
        try second.writeAll([1, 2, 3])
        XCTAssertEqual(try Files.read(dir + "/b"), [1, 2, 3], "closing the first twice left descriptor \(number) alone")
        // A borrowed descriptor is never closed by its object.
        var borrowed: FileDescriptor? = FileDescriptor(borrowing: second.rawValue)
        borrowed?.close()
        borrowed = nil
        try second.writeAll([4])
        XCTAssertEqual(try Files.read(dir + "/b"), [1, 2, 3, 4])
    }

    func testAnAtomicWriteReplacesTheWholeFileAndLeavesNoTemporary() throws {
        let path = dir + "/status"
        try Files.writeAtomically(Array("old".utf8), to: path, durable: true)
        try Files.writeAtomically(Array("new, longer".utf8), to: path, mode: 0o600, durable: true)
        XCTAssertEqual(Files.readText(path), "new, longer")
        XCTAssertEqual(try Files.list(dir), ["status"])
        XCTAssertThrowsError(try Files.writeAtomically([1], to: dir + "/missing/status", durable: false)) {
            XCTAssertEqual(($0 as? SystemError)?.errno, .notFound)
        }
        XCTAssertEqual(Files.readText(path), "new, longer", "a failed write leaves the old file")
    }

    func testAWholeFileReadIsBoundedAndSaysWhatWentWrong() throws {
        let path = dir + "/log"
        try Files.writeAtomically([UInt8](repeating: 7, count: 3 << 20), to: path, durable: false)
        XCTAssertEqual(try Files.read(path).count, 3 << 20)
        XCTAssertThrowsError(try Files.read(path, limit: 2 << 20)) {
            XCTAssertEqual("\($0)", "\(path): larger than 2 MiB")
        }
        XCTAssertEqual(try Files.readPrefix(path, limit: 10).count, 10)
        XCTAssertNil(try Files.readIfPresent(dir + "/none"))
        XCTAssertThrowsError(try Files.read(dir + "/none")) {
            XCTAssertEqual("\($0)", "\(self.dir)/none: No such file or directory")
        }
    }

    func testTheMonotonicClockMovesOnlyForward() {
        let a = MonotonicClock.now()
        MonotonicClock.sleep(seconds: 0.02)
        let b = MonotonicClock.now()
        XCTAssertGreaterThanOrEqual((b - a).seconds, 0.02)
        XCTAssertGreaterThan(WallClock.seconds(), 1_700_000_000, "the wall clock is seconds since 1970")
        let t = CalendarTime(seconds: 1_796_151_641, utc: true)
        XCTAssertEqual(t, CalendarTime(year: 2026, month: 12, day: 1, hour: 19, minute: 0, second: 41))
        XCTAssertEqual(t.seconds(utc: true), 1_796_151_641)
    }

    /// A C library's -errno (libgpiod's shim) goes through the same EINTR loop and comes back
    /// as the room's `Errno`, never as a bare number.
    func testANegatedErrnoIsRetriedOnEINTRAndComesBackTyped() {
        var calls = 0
        let r = Syscall.negative { () -> Int32 in
            calls += 1
            return calls < 3 ? -EINTR : 7
        }
        XCTAssertEqual(try r.get(), 7)
        XCTAssertEqual(calls, 3, "EINTR is retried until the call does something")
        guard case .failure(let e) = Syscall.negative({ -EIO as Int32 }) else { return XCTFail("EIO is a failure") }
        XCTAssertEqual(e, .io)
        XCTAssertEqual(Errno(negated: -Int(EAGAIN)), .wouldBlock)
        XCTAssertNil(Errno(negated: 0))
        XCTAssertNil(Errno(negated: 12))
    }

    /// One shape for a poll entry: what is wanted stays as asked, what happened is apart from
    /// it, and a wait that finds nothing leaves nothing happened.
    func testAPollEntryKeepsWhatWasWantedApartFromWhatHappened() throws {
        let pipe = try WakePipe()
        var fds = [PollDescriptor(fd: pipe.readEnd.rawValue, wanted: PollEvents.readable, happened: PollEvents.error)]
        XCTAssertEqual(try Poll.wait(&fds, timeoutMilliseconds: 0), 0)
        XCTAssertEqual(fds[0].happened, 0, "nothing happened: no stale events")
        XCTAssertEqual(fds[0].wanted, PollEvents.readable)
        pipe.ring()
        XCTAssertEqual(try Poll.wait(&fds, timeoutMilliseconds: 1000), 1)
        XCTAssertTrue(fds[0].happened(PollEvents.readable))
        XCTAssertEqual(fds[0].wanted, PollEvents.readable, "what was wanted is not overwritten by what happened")
        let ready = Poll.ready([PollDescriptor(fd: pipe.readEnd.rawValue, wanted: PollEvents.readable)], timeoutMilliseconds: 0)
        XCTAssertEqual(ready.map(\.fd), [pipe.readEnd.rawValue])
        XCTAssertTrue(pipe.drain())
        XCTAssertEqual(Poll.ready(fds, timeoutMilliseconds: 0), [])
    }

    func testAWakePipeIsSeenByPollAndDrainsOnce() throws {
        let pipe = try WakePipe()
        XCTAssertEqual(Poll.wait(for: pipe.readEnd.rawValue, events: PollEvents.readable, timeoutMilliseconds: 0), 0)
        XCTAssertFalse(pipe.drain())
        pipe.ring()
        pipe.ring()
        XCTAssertNotEqual(Poll.wait(for: pipe.readEnd.rawValue, events: PollEvents.readable, timeoutMilliseconds: 1000) & PollEvents.readable, 0)
        XCTAssertTrue(pipe.drain())
        XCTAssertFalse(pipe.drain(), "both rings were taken at once")
    }

    func testNumbersAndXMLText() {
        XCTAssertEqual(FixedPoint.fixed(12.3, 2), "12.30")
        XCTAssertEqual(FixedPoint.fixed(-2.5, 0), "-3")
        XCTAssertEqual(FixedPoint.fixed(-0.04, 1), "0.0", "no minus sign on a rounded zero")
        XCTAssertEqual(FixedPoint.fixed(54.3412345, 7), "54.3412345")
        XCTAssertEqual(FixedPoint.fixed(.nan, 2), "-")
        XCTAssertEqual(XMLText.escape("Anchor <watch> & \"night\""), "Anchor &lt;watch&gt; &amp; &quot;night&quot;")
        XCTAssertEqual(XMLText.escape("Can't judge"), "Can't judge")
    }
}
