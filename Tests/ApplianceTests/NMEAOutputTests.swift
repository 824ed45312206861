#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Drivers
import NMEA0183
@testable import WatchCore
import XCTest

/// The NMEA output's promises to the loop: a client that does not read, or that vanished, is
/// dropped, never waited for; the box's own work goes on.
final class NMEAOutputTests: XCTestCase {
    func settings() -> NMEASettings {
        var s = NMEASettings()
        s.enabled = true
        s.listen = "127.0.0.1"
        s.port = 0
        return s
    }

    func status(_ alarm: AlarmState) -> WatchStatus {
        WatchStatus(verdict: .dragging, alarm: alarm, anchor: Coordinate(latitude: 43.2, longitude: 5.3), radius: 40,
                    distance: 62, readingAge: .seconds(1), accuracy: 3, wontRing: "", faults: [], faultSounding: false)
    }

    func connect(_ port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let addr = try XCTUnwrap(InetSocket.address("127.0.0.1", port: port))
        let r = InetSocket.withSockaddr(addr) { Glibc.connect(fd, $0, $1) }
        XCTAssertEqual(r, 0)
        return fd
    }

    /// One turn of the loop for this output: poll its descriptors briefly, serve what is ready.
    func turn(_ out: NMEAOutput, now: Instant) {
        var fds = out.pollRequests().map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), 50)
        let ready = fds.filter { $0.revents != 0 }.map { PollDescriptor(fd: $0.fd, wanted: $0.events, happened: $0.revents) }
        _ = out.service(ready: ready, now: now)
    }

    func testAClientThatNeverReadsIsDroppedAndNoSendWaits() throws {
        let out = NMEAOutput(settings: settings(), wall: { 1_700_000_000 }, now: .zero)
        out.outboxLimit = 4096
        let port = try XCTUnwrap(out.port)
        let reader = try connect(port)
        let sleeper = try connect(port, receiveBuffer: 1024)
        defer { close(reader); close(sleeper) }
        for _ in 0..<5 where out.clientCount < 2 { turn(out, now: .zero) }
        XCTAssertEqual(out.clientCount, 2)
        var times: [Duration] = []
        var t = Instant.zero
        // Ringing and snoozed in turn: every show is a change, about 450 bytes to each client.
        for i in 0..<4000 where out.clientCount == 2 {
            t = t + .seconds(1)
            let start = ContinuousClock.now
            out.show(status(i % 2 == 0 ? .ringing(episode: 1) : .snoozed(until: t + .seconds(300), episode: 1)), now: t)
            times.append(ContinuousClock.now - start)
            // The good client reads everything it is sent.
            var buf = [UInt8](repeating: 0, count: 65536)
            while recv(reader, &buf, buf.count, Int32(MSG_DONTWAIT)) > 0 {}
        }
        XCTAssertEqual(out.clientCount, 1, "the client that never reads is dropped; the one that reads stays")
        times.sort()
        print("NMEA: show() with a stuck client, \(times.count) changes: median \(times[times.count / 2]), slowest \(times.last!)")
        // The client that reads still gets what follows.
        out.show(status(.off), now: t + .seconds(1))
        var buf = [UInt8](repeating: 0, count: 4096)
        var got = 0
        for _ in 0..<20 where got == 0 {
            got = recv(reader, &buf, buf.count, Int32(MSG_DONTWAIT))
            if got <= 0 { got = 0; usleep(10_000) }
        }
        XCTAssertTrue(String(decoding: buf[0..<got], as: UTF8.self).contains(",N,,10001,1,"))
    }

    func testAClientThatVanishesIsForgotten() throws {
        let out = NMEAOutput(settings: settings(), wall: { 1_700_000_000 }, now: .zero)
        let port = try XCTUnwrap(out.port)
        let fd = try connect(port)
        for _ in 0..<5 where out.clientCount < 1 { turn(out, now: .zero) }
        XCTAssertEqual(out.clientCount, 1)
        close(fd)
        for _ in 0..<5 where out.clientCount > 0 { turn(out, now: .zero) }
        XCTAssertEqual(out.clientCount, 0)
        out.show(status(.ringing(episode: 1)), now: Instant(seconds: 1))  // nothing to send to, nothing breaks
    }

    func testNeverMoreClientsThanMaxClients() throws {
        var s = settings()
        s.maxClients = 2
        let out = NMEAOutput(settings: s, wall: { 1_700_000_000 }, now: .zero)
        let port = try XCTUnwrap(out.port)
        let fds = try (0..<3).map { _ in try connect(port) }
        defer { fds.forEach { close($0) } }
        for _ in 0..<5 { turn(out, now: .zero) }
        XCTAssertEqual(out.clientCount, 2)
    }

    func testAPortInUseIsARowNotAStop() throws {
        let first = NMEAOutput(settings: settings(), wall: { 0 }, now: .zero)
        var s = settings()
        s.port = try XCTUnwrap(first.port)
        let second = NMEAOutput(settings: s, wall: { 0 }, now: .zero)
        XCTAssertEqual(second.row.status, .attention)
        XCTAssertTrue(second.row.answer.hasPrefix("No: can't listen on 127.0.0.1:\(s.port)"), second.row.answer)
        XCTAssertEqual(second.nextDeadline(), Instant(seconds: 30), "it tries again later")
        XCTAssertEqual(first.row.status, .ok)
    }

    func testOffByDefaultAndOffSaysSo() {
        XCTAssertFalse(Configuration().nmea.enabled)
        let rows = SystemsCheck.boxRows(status: status(.off), fitted: [], local: [])
        XCTAssertEqual(rows.first { $0.component == .nmeaOut }?.answer, "Off: not configured")
        XCTAssertEqual(rows.first { $0.component == .nmeaOut }?.status, .ok)
    }
}
