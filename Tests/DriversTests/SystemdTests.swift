import XCTest
@testable import Drivers
#if canImport(Glibc)
import Glibc
#endif

/// Plays systemd's side of the notify protocol: a datagram socket named by NOTIFY_SOCKET.
final class SystemdTests: XCTestCase {
    private var fd: Int32 = -1
    private var path = ""

    override func setUp() {
        path = "/tmp/anchor-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in
            _ = path.utf8CString.withUnsafeBytes { src in memcpy(buf.baseAddress!, src.baseAddress!, src.count) }
        }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(r, 0, "bind \(path): errno \(errno)")
        var tv = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    override func tearDown() {
        close(fd)
        unlink(path)
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] { unsetenv(name) }
    }

    private func received() -> String? {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buf, buf.count, 0)
        guard n > 0 else { return nil }
        return String(decoding: buf[0..<n], as: UTF8.self)
    }

    func testReadyStatusPingAndStoppingReachTheSocket() throws {
        setenv("NOTIFY_SOCKET", path, 1)
        let systemd = Systemd()
        XCTAssertEqual(try systemd.ready(status: "Holding\nWon't ring: alarm is off"), .sent)
        XCTAssertEqual(received(), "READY=1\nSTATUS=Holding Won't ring: alarm is off")
        XCTAssertEqual(try systemd.status("Checking"), .sent)
        XCTAssertEqual(received(), "STATUS=Checking")
        XCTAssertEqual(try systemd.pingWatchdog(), .sent)
        XCTAssertEqual(received(), "WATCHDOG=1")
        XCTAssertEqual(try systemd.stopping(status: "Stopping"), .sent)
        XCTAssertEqual(received(), "STOPPING=1\nSTATUS=Stopping")
    }

    func testWatchdogIntervalComesFromTheEnvironmentAndPingsAtHalf() {
        setenv("WATCHDOG_USEC", "30000000", 1)
        setenv("WATCHDOG_PID", "\(getpid())", 1)
        let systemd = Systemd()
        XCTAssertEqual(systemd.watchdogInterval, .seconds(30))
        XCTAssertEqual(systemd.pingInterval, .seconds(15))
    }

    func testWatchdogMeantForAnotherProcessIsNotOurs() {
        setenv("WATCHDOG_USEC", "30000000", 1)
        setenv("WATCHDOG_PID", "\(getpid() + 1)", 1)
        XCTAssertNil(Systemd().watchdogInterval)
    }

    func testOutsideSystemdEverythingIsAHarmlessNoOp() throws {
        unsetenv("NOTIFY_SOCKET")
        let systemd = Systemd()
        XCTAssertNil(systemd.watchdogInterval)
        XCTAssertNil(systemd.pingInterval)
        XCTAssertEqual(try systemd.ready(status: "Holding"), .notSupervised)
        XCTAssertEqual(try systemd.pingWatchdog(), .notSupervised)
    }

    func testAManagerThatIsGoneIsAnError() {
        setenv("NOTIFY_SOCKET", path + ".missing", 1)
        XCTAssertThrowsError(try Systemd().pingWatchdog()) { error in
            XCTAssertEqual((error as? Systemd.NotifyError)?.errno, .notFound)
        }
    }
}
