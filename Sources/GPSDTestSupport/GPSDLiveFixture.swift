import Glibc

/// A real gpsd reading a pseudo-terminal the test writes to, sentence by sentence: the receiver
/// is the test. For what gpsfake can't stage: a receiver that stays plugged in but goes silent,
/// or repeats itself. gpsfake closes its pty when its log ends, which gpsd reports as the
/// receiver going away.
///
/// Runs `gpsd -N -n -b -S <port> -F <dir>/control.sock <pty>` in its own process group, with
/// `GPSD_SHM_KEY` derived from the port as gpsfake does, so parallel runs don't share memory.
public final class GPSDLiveFixture {
    public let port: UInt16
    public let host = "127.0.0.1"
    public let directory: String
    /// The receiver's side: what is written here is what gpsd reads from the device.
    public private(set) var master: Int32 = -1
    public let devicePath: String
    public private(set) var pid: pid_t = 0
    public static let gpsd = "/usr/sbin/gpsd"

    public init(port: UInt16? = nil) throws {
        guard access(Self.gpsd, X_OK) == 0 else {
            throw GPSFakeFixture.Failure(description: "gpsd can't start: \(Self.gpsd) is missing (install gpsd)")
        }
        self.port = try port ?? GPSFakeFixture.freePort()
        var template = Array("/tmp/gpsd-live-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw GPSFakeFixture.Failure(description: "mkdtemp: errno \(errno)") }
        directory = String(cString: made)
        // posix_openpt and friends need _XOPEN_SOURCE, which the Glibc module lacks: the same
        // three steps by hand (open the multiplexer, unlock, ask the number).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned int): function-like
        // macros Swift can't import; the values are the same on x86_64 and arm64.
        let TIOCSPTLCK: UInt = 0x4004_5431
        let TIOCGPTN: UInt = 0x8004_5430
        guard master >= 0, ioctl(master, TIOCSPTLCK, &unlock) == 0,
              ioctl(master, TIOCGPTN, &number) == 0
        else {
            throw GPSFakeFixture.Failure(description: "no pseudo-terminal: errno \(errno)")
        }
        devicePath = "/dev/pts/\(number)"
        // Raw mode on the receiver's side too, so sentences pass through unchanged.
        var tio = termios()
        tcgetattr(master, &tio)
        cfmakeraw(&tio)
        tcsetattr(master, TCSANOW, &tio)
        try spawn()
    }

    deinit { stop() }

    private func spawn() throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, directory + "/gpsd.out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/gpsd.err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attr, 0)
        let hex = String(port, radix: 16, uppercase: true)
        let key = "0x4770" + String(repeating: "0", count: 4 - hex.count) + hex
        let args = [Self.gpsd, "-N", "-n", "-b", "-S", String(port), "-F", directory + "/control.sock", devicePath]
        let env = ["GPSD_SHM_KEY=\(key)", "PATH=/usr/sbin:/usr/bin:/sbin:/bin"]
        var cargs = args.map { strdup($0) } + [nil]
        var cenv = env.map { strdup($0) } + [nil]
        defer { (cargs + cenv).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, Self.gpsd, &actions, &attr, &cargs, &cenv)
        guard rc == 0 else { throw GPSFakeFixture.Failure(description: "gpsd can't start: posix_spawn errno \(rc)") }
        pid = child
    }

    /// Waits until gpsd accepts connections; fails with its stderr if it exits first.
    public func waitUntilListening(timeout: Duration = .seconds(10)) throws -> Double {
        let start = GPSFakeFixture.monotonic()
        while GPSFakeFixture.monotonic() - start < timeout.seconds {
            if GPSFakeFixture.accepts(host: host, port: port) { return GPSFakeFixture.monotonic() - start }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                throw GPSFakeFixture.Failure(description: "gpsd exited (status \(status)): \(stderr)")
            }
            GPSFakeFixture.pause(milliseconds: 10)
        }
        throw GPSFakeFixture.Failure(description: "gpsd did not listen on \(port): \(stderr)")
    }

    /// Sends sentences as the receiver would, each ended by CR LF.
    public func send(_ lines: [String]) {
        let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue } else { return } }
            done += n
        }
    }

    public var stderr: String { GPSFakeFixture.read(directory + "/gpsd.err") }

    /// Kills gpsd, closes the receiver and removes gpsd's shared memory and files.
    public func stop() {
        if pid > 0 {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let gpsdPID = pid
            pid = 0
            for line in GPSFakeFixture.read("/proc/sysvipc/shm").split(separator: "\n").dropFirst() {
                let f = line.split(separator: " ", omittingEmptySubsequences: true)
                guard f.count > 6, let shmid = Int32(f[1]), let cpid = Int32(f[4]), let nattch = Int(f[6]) else { continue }
                if cpid == gpsdPID, nattch == 0 { shmctl(shmid, IPC_RMID, nil) }
            }
            let id = shmget(key_t(bitPattern: 0x4770_0000 | UInt32(port)), 0, 0)
            if id >= 0 { shmctl(id, IPC_RMID, nil) }
        }
        if master >= 0 { close(master); master = -1 }
        for name in ["gpsd.out", "gpsd.err", "control.sock"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }
}
