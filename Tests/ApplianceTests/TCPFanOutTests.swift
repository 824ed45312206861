#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Drivers
@testable import WatchCore
import XCTest

/// The TCP fan-out NMEA and Signal K share, with the full-house rule each chose: a new plotter
/// takes the place of the longest connected idle one (NMEA, so idle connections can't lock a
/// plotter out); a new Signal K client is turned away (the servers there keep their feed).
final class TCPFanOutTests: XCTestCase {
    func status() -> WatchStatus {
        WatchStatus(verdict: .holding, alarm: .armed, anchor: Coordinate(latitude: 43.2, longitude: 5.3), radius: 40,
                    distance: 12, readingAge: .seconds(1), accuracy: 3, wontRing: "", faults: [], faultSounding: false)
    }

    func connect(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let addr = try XCTUnwrap(InetSocket.address("127.0.0.1", port: port))
        XCTAssertEqual(InetSocket.withSockaddr(addr) { Glibc.connect(fd, $0, $1) }, 0)
        return fd
    }

    func turn(_ out: Pollable, now: Instant) {
        var fds = out.pollRequests().map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), 50)
        let ready = fds.filter { $0.revents != 0 }.map { PollDescriptor(fd: $0.fd, wanted: $0.events, happened: $0.revents) }
        _ = out.service(ready: ready, now: now)
    }

    /// What a client has been sent by now, and whether the box has closed it.
    func drain(_ fd: Int32) -> (bytes: Int, closed: Bool) {
        var total = 0
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 200) == 1 else { return (total, false) }
            let n = recv(fd, &buf, buf.count, 0)
            if n <= 0 { return (total, true) }
            total += n
        }
    }

    func connectThree(_ out: Pollable, port: Int) throws -> [Int32] {
        var fds: [Int32] = []
        for i in 0..<3 {
            fds.append(try connect(port))
            for _ in 0..<3 { turn(out, now: Instant(seconds: Double(i))) }
        }
        return fds
    }

    func testNMEAFullANewPlotterTakesTheLongestConnectedPlace() throws {
        var s = NMEASettings()
        s.enabled = true
        s.listen = "127.0.0.1"
        s.port = 0
        s.maxClients = 2
        let out = NMEAOutput(settings: s, wall: { 1_700_000_000 }, now: .zero)
        let fds = try connectThree(out, port: try XCTUnwrap(out.port))
        defer { fds.forEach { close($0) } }
        XCTAssertEqual(out.clientCount, 2)
        let seen = fds.map(drain)
        XCTAssertTrue(seen[0].closed, "the longest connected gave its place: \(seen)")
        XCTAssertFalse(seen[1].closed, "\(seen)")
        XCTAssertFalse(seen[2].closed, "the new plotter is in: \(seen)")
        XCTAssertGreaterThan(seen[2].bytes, 0, "and was sent the present")
    }

    func testSignalKFullANewClientIsTurnedAway() throws {
        var s = SignalKSettings()
        s.enabled = true
        s.listen = "127.0.0.1"
        s.port = 0
        s.maxClients = 2
        let out = SignalKOutput(settings: s, wall: { 1_700_000_000 }, now: .zero)
        out.show(status(), now: .zero)
        let fds = try connectThree(out, port: try XCTUnwrap(out.port))
        defer { fds.forEach { close($0) } }
        XCTAssertEqual(out.clientCount, 2)
        let seen = fds.map(drain)
        XCTAssertFalse(seen[0].closed, "\(seen)")
        XCTAssertFalse(seen[1].closed, "\(seen)")
        XCTAssertGreaterThan(seen[0].bytes, 0, "the servers there were sent the present")
        XCTAssertEqual(seen[2].bytes, 0, "\(seen)")
        XCTAssertTrue(seen[2].closed, "the new client is turned away: \(seen)")
    }
}
