import Glibc

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
    public private(set) var pid: pid_t = 0
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
        for path in [Self.python, Self.gpsfake] where access(path, X_OK) != 0 {
            throw Failure(description: "gpsfake can't start: \(path) is missing (install gpsd and gpsd-clients)")
        }
        guard access(log, R_OK) == 0 else { throw Failure(description: "gpsfake can't start: no log at \(log)") }
        self.log = log
        self.secondsPerSentence = secondsPerSentence
        self.endsWithLog = endsWithLog
        self.port = try port ?? Self.freePort()
        var template = Array("/tmp/gpsfake-fixture-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed: errno \(errno)") }
        self.directory = String(cString: made)
        try spawn()
    }

    deinit { stop() }

    /// Writes `lines` (already framed sentences, or anything else a test wants to send) to a
    /// log file in a fresh directory and returns its path; `stop()` of the fixture that replays
    /// it removes it.
    public static func writeLog(_ lines: [String], name: String = "test.log") throws -> String {
        var template = Array("/tmp/gpsfake-log-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed: errno \(errno)") }
        let path = String(cString: made) + "/" + name
        guard let f = fopen(path, "w") else { throw Failure(description: "can't write \(path)") }
        defer { fclose(f) }
        for line in lines { fputs(line + "\r\n", f) }
        return path
    }

    // MARK: - Process

    private func spawn() throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, directory + "/gpsfake.out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/gpsfake.err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // Its own process group: one kill reaches gpsfake and the gpsd it started.
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attr, 0)

        // -W: without -p, gpsfake would otherwise give up on an exhausted log after 60 s.
        let args = [Self.python, Self.gpsfake, "-1", "-q", "-P", String(port), "-c", String(secondsPerSentence)]
            + (endsWithLog ? ["-p"] : ["-W", "3600"]) + [log]
        let env = ["TMPDIR=\(directory)", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8"]
        var cargs = args.map { strdup($0) } + [nil]
        var cenv = env.map { strdup($0) } + [nil]
        defer { (cargs + cenv).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, Self.python, &actions, &attr, &cargs, &cenv)
        guard rc == 0 else { throw Failure(description: "gpsfake can't start: posix_spawn errno \(rc)") }
        pid = child
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
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == pid {
            exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            return false
        }
        return r == 0
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
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exitStatus = 128 + SIGKILL
        }
        // gpsd is gpsfake's child, so it may outlive it for a moment: its port and shared memory
        // are free only once it is gone.
        let start = Self.monotonic()
        while !groupPIDs(named: nil).isEmpty, Self.monotonic() - start < 5 {
            kill(-pid, SIGKILL)
            Self.pause(milliseconds: 10)
        }
        removeLeftovers()
        // A log made by `writeLog` goes with the fixture that replayed it.
        if log.hasPrefix("/tmp/gpsfake-log-"), let slash = log.lastIndex(of: "/") {
            unlink(log)
            rmdir(String(log[..<slash]))
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
        let exportKey = key_t(bitPattern: 0x4770_0000 | UInt32(port))
        let id = shmget(exportKey, 0, 0)
        if id >= 0 { shmctl(id, IPC_RMID, nil) }
        for line in Self.read("/proc/sysvipc/shm").split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count > 6, let shmid = Int32(f[1]), let cpid = Int32(f[4]), let nattch = Int(f[6]) else { continue }
            if gpsdPIDs.contains(cpid), nattch == 0 { shmctl(shmid, IPC_RMID, nil) }
        }
        if let dir = opendir(directory) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(directory + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(directory)
    }

    /// Pids in gpsfake's process group (optionally only those whose command is `name`).
    private func groupPIDs(named name: String?) -> Set<Int32> {
        guard pid > 0, let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        var out: Set<Int32> = []
        while let entry = readdir(proc) {
            let d = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
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
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard ok else { throw Failure(description: "bind: errno \(errno)") }
        return UInt16(bigEndian: addr.sin_port)
    }

    /// True when something accepts TCP connections on host:port (connects and closes at once).
    public static func accepts(host: String, port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr(host)
        addr.sin_port = port.bigEndian
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    public static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func pause(milliseconds: Int) {
        var ts = timespec(tv_sec: 0, tv_nsec: milliseconds * 1_000_000)
        var left = timespec()
        while nanosleep(&ts, &left) != 0 && errno == EINTR { ts = left }
    }

    static func read(_ path: String) -> String {
        guard let f = fopen(path, "r") else { return "" }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            bytes += buf[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
