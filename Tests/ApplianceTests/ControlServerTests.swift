#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import WatchCore
import XCTest

final class ControlServerTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory("ctl") }
    override func tearDown() { removeTree(dir) }

    func testTheSocketIsForOwnerAndGroupOnly() throws {
        let box = try MiniBox(directory: dir)
        var st = stat()
        XCTAssertEqual(lstat(box.server.path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertEqual(st.st_mode & 0o777, 0o660)
        // Only a Unix socket: the box listens on no network port.
        XCTAssertTrue(box.server.pollRequests().allSatisfy { fd in
            var addr = sockaddr()
            var len = socklen_t(MemoryLayout<sockaddr>.size)
            return getsockname(fd.fd, &addr, &len) == 0 && addr.sa_family == sa_family_t(AF_UNIX)
        })
    }

    func testASecondBoxCantTakeALiveSocketButReplacesAStaleOne() throws {
        let box = try MiniBox(directory: dir)
        XCTAssertThrowsError(try ControlServer(directory: dir)) { e in
            XCTAssertEqual((e as? SystemError)?.errno, .addressInUse)
        }
        box.server.close()
        // A socket file left behind by a crash (nobody listening) is replaced.
        let fd = try UnixSocket.make(nonBlocking: false)
        try UnixSocket.withAddress(box.server.path) { a, l in _ = bind(fd.rawValue, a, l) }
        fd.close()
        XCTAssertNoThrow(try ControlServer(directory: dir))
    }

    func testMalformedInputIsRefusedAndTheBoxCarriesOn() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        let before = box.watch.status(at: box.now)
        let c = try RawClient(dir)
        c.send("this is not json\n")
        let r1 = c.awaitReply(box)
        XCTAssertEqual(r1?["result"]?.string, "error")
        XCTAssertEqual(r1?["error"]?.string, "malformed")
        c.send("{\"id\":\"a\",\"decision\":\"arm\"}\n")
        XCTAssertEqual(c.awaitReply(box)?["says"]?.string, "Can't arm from here: use the switch on the box")
        c.send(bytes: [0xFF, 0xFE, 0x00, 0x7B, 0x0A])
        XCTAssertEqual(c.awaitReply(box)?["result"]?.string, "error")
        XCTAssertEqual(box.watch.status(at: box.now), before, "refused input changed nothing")
        XCTAssertEqual(box.journal, [])
        // The same connection still works for a good request.
        c.send("{\"id\":\"b\",\"decision\":\"mark\"}\n")
        let r = c.awaitReply(box)
        XCTAssertEqual(r?["id"]?.string, "b")
        XCTAssertEqual(r?["result"]?.string, "receipt")
        XCTAssertNotNil(box.watch.anchor)
    }

    func testOversizedInputIsRefusedAndTheClientDropped() throws {
        let box = try MiniBox(directory: dir)
        let c = try RawClient(dir)
        c.send(bytes: Array(repeating: UInt8(ascii: "x"), count: 8000))
        let r = c.awaitReply(box)
        XCTAssertEqual(r?["error"]?.string, "too_long")
        box.run(until: { c.drain(); return c.hungUp }, limit: 2)
        XCTAssertTrue(c.hungUp, "a client that sent an endless line is hung up on")
        XCTAssertEqual(box.server.connectionCount, 0)
        // Other clients are served as before.
        let d = try RawClient(dir)
        d.send("{\"decision\":\"radius\",\"meters\":45}\n")
        XCTAssertEqual(d.awaitReply(box)?["says"]?.string, "Alert radius: 45 m")
    }

    func testReceiptsWaitForTheJournalSync() throws {
        let box = try MiniBox(directory: dir)
        box.autoSync = false
        box.fixes(east: 0)
        let c = try RawClient(dir)
        c.send("{\"id\":\"m\",\"decision\":\"mark\"}\n")
        box.run(until: { !box.unsynced.isEmpty }, limit: 3)
        XCTAssertNotNil(box.watch.anchor, "the box applied the mark")
        for _ in 0..<20 { box.turn(timeoutMs: 5) }
        XCTAssertNil(c.reply(), "no receipt before the journal says the mark is durable")
        box.sync()
        let r = c.awaitReply(box)
        XCTAssertEqual(r?["result"]?.string, "receipt")
        XCTAssertTrue(r?["says"]?.string?.hasPrefix("Anchor marked at 54.") ?? false, "\(String(describing: r))")
        // A refusal is not a durable record: it is answered at once, sync or no sync.
        c.send("{\"id\":\"s\",\"decision\":\"snooze\",\"episode\":1}\n")
        let refused = c.awaitReply(box)
        XCTAssertEqual(refused?["refusal"]?.string, "not_ringing")
        XCTAssertTrue(box.unsynced.isEmpty)
    }

    func testAClientKilledMidCommandLeavesTheDecisionAndTheBoxStanding() throws {
        let box = try MiniBox(directory: dir)
        box.autoSync = false
        box.ringing()
        let episode = box.watch.alarm.episode!
        let c = try RawClient(dir)
        c.send("{\"id\":\"k\",\"decision\":\"snooze\",\"episode\":\(episode)}\n")
        box.run(until: { !box.unsynced.isEmpty }, limit: 3)
        c.close()  // gone before its receipt
        for _ in 0..<5 { box.turn(timeoutMs: 5) }
        box.sync()  // the reply to a vanished client is dropped, not a crash
        XCTAssertEqual(box.watch.alarm.kind, .snoozed, "the decision stands without its client")
        XCTAssertEqual(box.synced, 1)
        box.autoSync = true
        let d = try RawClient(dir)
        d.send("{\"decision\":\"radius\",\"meters\":60}\n")
        XCTAssertEqual(d.awaitReply(box)?["result"]?.string, "receipt")
        XCTAssertEqual(box.server.connectionCount, 1)
    }

    func testASecondClientCantAnswerAnAlarmAlreadySnoozed() throws {
        let box = try MiniBox(directory: dir)
        box.ringing()
        let episode = box.watch.alarm.episode!
        let first = try RawClient(dir)
        let second = try RawClient(dir)
        first.send("{\"id\":\"1\",\"decision\":\"snooze\",\"episode\":\(episode)}\n")
        XCTAssertEqual(first.awaitReply(box)?["says"]?.string, "Snoozed for 5:00")
        second.send("{\"id\":\"2\",\"decision\":\"snooze\",\"episode\":\(episode)}\n")
        let r = second.awaitReply(box)
        XCTAssertEqual(r?["result"]?.string, "refused")
        XCTAssertEqual(r?["refusal"]?.string, "wrong_episode")
        XCTAssertEqual(r?["says"]?.string, "Can't snooze: that alarm was already answered")
        XCTAssertEqual(box.journal.count, 1, "the one snooze; the refused one is not a record")
    }

    func testABoundOnClientsAndOnPendingRequests() throws {
        let box = try MiniBox(directory: dir)
        box.autoSync = false
        var clients: [RawClient] = []
        // A Unix socket's connect blocks while the backlog is full: accept as they come.
        for i in 0..<16 {
            clients.append(try RawClient(dir))
            box.run(until: { box.server.connectionCount == i + 1 }, limit: 2)
        }
        let extra = try RawClient(dir)
        let r = extra.awaitReply(box)
        XCTAssertEqual(r?["error"]?.string, "busy")
        box.fixes(east: 0)
        let c = clients[0]
        for i in 0..<5 { c.send("{\"id\":\"r\(i)\",\"decision\":\"radius\",\"meters\":\(40 + i)}\n") }
        let busy = c.awaitReply(box)
        XCTAssertEqual(busy?["id"]?.string, "r4")
        XCTAssertEqual(busy?["error"]?.string, "busy")
        box.sync()
        var ids: [String] = []
        box.run(until: {
            while let r = c.reply() { ids.append(r["id"]?.string ?? "?") }
            return ids.count == 4
        }, limit: 3)
        XCTAssertEqual(ids, ["r0", "r1", "r2", "r3"], "answers come in order, once each")
    }

    func testIdleClientsAreClosedButWaitingOnesAreNot() throws {
        let box = try MiniBox(directory: dir)
        box.autoSync = false
        box.fixes(east: 0)
        let idle = try RawClient(dir)
        let waiting = try RawClient(dir)
        waiting.send("{\"decision\":\"release\"}\n")
        box.run(until: { !box.unsynced.isEmpty }, limit: 2)
        XCTAssertEqual(box.server.connectionCount, 2)
        box.now = box.now + .seconds(31)
        XCTAssertEqual(box.server.nextDeadline(), box.now - .seconds(31) + .seconds(30))
        box.turn(timeoutMs: 5)
        idle.drain()
        XCTAssertTrue(idle.hungUp)
        XCTAssertEqual(box.server.connectionCount, 1, "a client waiting for its receipt is kept")
        box.sync()
        XCTAssertEqual(waiting.awaitReply(box)?["says"]?.string, "Anchor released")
    }
}
