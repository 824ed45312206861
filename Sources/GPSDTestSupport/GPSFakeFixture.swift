import Glibc
import Posix

/// A real gpsd fed by `gpsfake` from a log file, on a free port, in its own scratch directory,
/// for tests. Start it, point a client at `host`/`port` at once (gpsfake waits 1.4 s after its
/// own watcher joins, then replays), and let `stop()` (or deinit) kill the whole process group
/// and remove what gpsfake leaves behind: its socket in TMPDIR and the SysV shared-memory
/// segments gpsd creates.
///
/// Runs `/usr/bin/python3 /usr/bin/gpsfake -1 -p -q -P <port> -c <secondsPerSentence> <log>`:
/// Debian's python, because the `gps` module lives with it and `python3` on PATH may be another.
public final class GPSFakeFixture {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let log: String
    public let port: UInt16
    public let host = "127.0.0.1"
    /// gpsfake's scratch directory (its TMPDIR); also holds its stdout and stderr.
    public let directory: String
    public let secondsPerSentence: Double
    public let endsWithLog: Bool
    /// gpsfake's pid, which is also the process group of it and its gpsd.
    public private(set) var pid: Int32 = 0
    /// gpsd's pids seen in the group, so that only their shared memory is removed.
    private var gpsdPIDs: Set<Int32> = []
    public private(set) var exitStatus: Int32?
    /// Monotonic seconds from spawning to gpsd accepting connections.
    public private(set) var startupSeconds: Double?

    public static let python = "/usr/bin/python3"
    public static let gpsfake = "/usr/bin/gpsfake"

    /// Starts gpsfake. Throws with the reason when gpsfake or python is missing or the
    /// directory can't be made: the caller's test must fail, never pass silently.
    ///
    /// `endsWithLog` (gpsfake's `-p`): gpsfake watches too, waits 1.4 s, replays once, removes
    /// the receiver (gpsd sends DEVICE with `"activated":0`) and exits about a second later,
    /// taking gpsd with it. Without it gpsd stays up after the last sentence with a silent
    /// receiver until `stop()`: the "reports stopped" case. Without it, gpsd opens the receiver
    /// (and gpsfake starts replaying) only once a client watches.
    public init(log: String, secondsPerSentence: Double = 0.02, port: UInt16? = nil, endsWithLog: Bool = true) throws {
        for path in [Self.python, Self.gpsfake] where !Files.isExecutable(path) {
            throw Failure(description: "gpsfake can't start: \(path) is missing (install gpsd and gpsd-clients)")
        }
        guard Files.exists(log) else { throw Failure(description: "gpsfake can't start: no log at \(log)") }
        self.log = log
        self.secondsPerSentence = secondsPerSentence
        self.endsWithLog = endsWithLog
        self.port = try port ?? Self.freePort()
        do {
            self.directory = try Files.makeTemporaryDirectory("/tmp/gpsfake-fixture-")
        } catch {
            throw Failure(description: "\(error)")
        }
        try spawn()
    }

    deinit { stop() }

    /// Writes `lines` (already framed sentences, or anything else a test wants to send) to a
    /// log file in a fresh directory and returns its path; `stop()` of the fixture that replays
    /// it removes it.
    public static func writeLog(_ lines: [String], name: String = "test.log") throws -> String {
        do {
            let path = try Files.makeTemporaryDirectory("/tmp/gpsfake-log-") + "/" + name
            try Files.writeAtomically(lines.map { $0 + "\r\n" }.joined().utf8, to: path, durable: false)
            return path
        } catch {
            throw Failure(description: "can't write the log: \(error)")
        }
    }

    // MARK: - Process

    private func spawn() throws {
        // Its own process group: one kill reaches gpsfake and the gpsd it started.
        // -W: without -p, gpsfake would otherwise give up on an exhausted log after 60 s.
        let args = [Self.gpsfake, "-1", "-q", "-P", String(port), "-c", String(secondsPerSentence)]
            + (endsWithLog ? ["-p"] : ["-W", "3600"]) + [log]
        let env = ["TMPDIR=\(directory)", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8"]
        do {
            pid = try Process.spawn(Self.python, args, environment: env, standardOutput: directory + "/gpsfake.out",
                                    standardError: directory + "/gpsfake.err", ownGroup: true)
        } catch {
            throw Failure(description: "gpsfake can't start: \(error)")
        }
    }

    /// Waits until gpsd accepts connections on `port`. Fails with gpsfake's stderr when it exits
    /// first or the timeout passes.
    public func waitUntilListening(timeout: Duration = .seconds(10)) throws {
        let start = Self.monotonic()
        while Self.monotonic() - start < timeout.seconds {
            if Self.accepts(host: host, port: port) {
                startupSeconds = Self.monotonic() - start
                gpsdPIDs.formUnion(groupPIDs(named: "gpsd"))
                return
            }
            if !isRunning { throw Failure(description: "gpsfake exited (status \(exitStatus ?? -1)) before gpsd listened: \(stderr)") }
            Self.pause(milliseconds: 10)
        }
        throw Failure(description: "gpsd did not listen on port \(port) within \(timeout): \(stderr)")
    }

    public var isRunning: Bool {
        guard pid > 0, exitStatus == nil else { return false }
        switch Process.wait(pid, block: false) {
        case .running: return true
        case .ended(let status):
            exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            return false
        case .unknown: return false
        }
    }

    /// Waits for gpsfake to exit by itself (the log replayed); returns its status, nil on timeout.
    public func waitForExit(timeout: Duration) -> Int32? {
        let start = Self.monotonic()
        while Self.monotonic() - start < timeout.seconds {
            if !isRunning { return exitStatus }
            gpsdPIDs.formUnion(groupPIDs(named: "gpsd"))
            Self.pause(milliseconds: 20)
        }
        return nil
    }

    /// Kills gpsfake and its gpsd now (SIGKILL to the group: a crash, as far as clients see),
    /// reaps gpsfake, and removes the leftovers. Safe to call twice.
    public func stop() {
        if pid > 0, isRunning {
            gpsdPIDs.formUnion(groupPIDs(named: "gpsd"))
            Process.kill(group: pid)
            Process.wait(pid)
            exitStatus = 128 + 9
        }
        // gpsd is gpsfake's child, so it may outlive it for a moment: its port and shared memory
        // are free only once it is gone.
        let start = Self.monotonic()
        while !groupPIDs(named: nil).isEmpty, Self.monotonic() - start < 5 {
            Process.kill(group: pid)
            Self.pause(milliseconds: 10)
        }
        removeLeftovers()
        // A log made by `writeLog` goes with the fixture that replayed it.
        if log.hasPrefix("/tmp/gpsfake-log-"), let slash = log.lastIndex(of: "/") {
            try? Files.unlink(log)
            try? Files.removeDirectory(String(log[..<slash]))
        }
    }

    /// gpsfake's stderr so far.
    public var stderr: String { Self.read(directory + "/gpsfake.err") }
    /// What gpsfake's own watcher printed (gpsd's JSON), for diagnostics.
    public var stdout: String { Self.read(directory + "/gpsfake.out") }

    // MARK: - Cleanup

    private func removeLeftovers() {
        // gpsfake keys gpsd's export segment by port ("Gp" + port); gpsd also makes NTP
        // segments, which are removed only when our gpsd created them and nobody is attached.
        SharedMemory.remove(key: 0x4770_0000 | UInt32(port))
        for line in Self.read("/proc/sysvipc/shm").split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count > 6, let shmid = Int32(f[1]), let cpid = Int32(f[4]), let nattch = Int(f[6]) else { continue }
            if gpsdPIDs.contains(cpid), nattch == 0 { SharedMemory.remove(id: shmid) }
        }
        for name in (try? Files.list(directory)) ?? [] { try? Files.unlink(directory + "/" + name) }
        try? Files.removeDirectory(directory)
    }

    /// Pids in gpsfake's process group (optionally only those whose command is `name`).
    private func groupPIDs(named name: String?) -> Set<Int32> {
        guard pid > 0, let entries = try? Files.list("/proc") else { return [] }
        var out: Set<Int32> = []
        for d in entries {
            guard let p = Int32(d) else { continue }
            let stat = Self.read("/proc/\(d)/stat")
            // pid (comm) state ppid pgrp ...
            guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let comm = String(stat[stat.index(after: open)..<close])
            let rest = stat[stat.index(after: close)...].split(separator: " ")
            guard rest.count > 2, rest[0] != "Z", Int32(rest[2]) == pid else { continue }
            if name == nil || comm == name { out.insert(p) }
        }
        return out
    }

    // MARK: - Helpers

    /// A port nobody listens on right now, from the kernel's ephemeral range.
    public static func freePort() throws -> UInt16 {
        do {
            let fd = try InetSocket.listen(host: "127.0.0.1", port: 0)
            defer { fd.close() }
            guard let port = InetSocket.boundPort(fd) else { throw Failure(description: "no port bound") }
            return UInt16(port)
        } catch let e as Failure {
            throw e
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// True when something accepts TCP connections on host:port (connects and closes at once).
    /// A blocking connect: for fixtures waiting for a server, never for the loop.
    public static func accepts(host: String, port: UInt16) -> Bool {
        guard let address = SocketAddress(host: host, port: Int(port)) else { return false }
        let raw = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { return false }
        let fd = FileDescriptor(adopting: raw)
        return address.withSockaddr { a, len in Glibc.connect(fd.rawValue, a, len) } == 0
    }

    public static func monotonic() -> Double { MonotonicClock.now().seconds }

    static func pause(milliseconds: Int) { MonotonicClock.sleep(seconds: Double(milliseconds) / 1000) }

    static func read(_ path: String) -> String { Files.readText(path, limit: 64 << 20) ?? "" }
}
