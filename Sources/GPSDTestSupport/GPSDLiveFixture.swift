import Posix

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
    private var receiver: FileDescriptor?
    public var master: Int32 { receiver?.rawValue ?? -1 }
    public let devicePath: String
    public private(set) var pid: Int32 = 0
    public static let gpsd = "/usr/sbin/gpsd"

    public init(port: UInt16? = nil) throws {
        guard Files.isExecutable(Self.gpsd) else {
            throw GPSFakeFixture.Failure(description: "gpsd can't start: \(Self.gpsd) is missing (install gpsd)")
        }
        self.port = try port ?? GPSFakeFixture.freePort()
        do {
            directory = try Files.makeTemporaryDirectory("/tmp/gpsd-live-")
            (receiver, devicePath) = try PseudoTerminal.open()
        } catch {
            throw GPSFakeFixture.Failure(description: "no pseudo-terminal: \(error)")
        }
        try spawn()
    }

    deinit { stop() }

    private func spawn() throws {
        let hex = String(port, radix: 16, uppercase: true)
        let key = "0x4770" + String(repeating: "0", count: 4 - hex.count) + hex
        let args = ["-N", "-n", "-b", "-S", String(port), "-F", directory + "/control.sock", devicePath]
        let env = ["GPSD_SHM_KEY=\(key)", "PATH=/usr/sbin:/usr/bin:/sbin:/bin"]
        do {
            pid = try Process.spawn(Self.gpsd, args, environment: env, standardOutput: directory + "/gpsd.out",
                                    standardError: directory + "/gpsd.err", ownGroup: true)
        } catch {
            throw GPSFakeFixture.Failure(description: "gpsd can't start: \(error)")
        }
    }

    /// Waits until gpsd accepts connections; fails with its stderr if it exits first.
    public func waitUntilListening(timeout: Duration = .seconds(10)) throws -> Double {
        let start = GPSFakeFixture.monotonic()
        while GPSFakeFixture.monotonic() - start < timeout.seconds {
            if GPSFakeFixture.accepts(host: host, port: port) { return GPSFakeFixture.monotonic() - start }
            if case .ended(let status) = Process.wait(pid, block: false) {
                pid = 0
                throw GPSFakeFixture.Failure(description: "gpsd exited (status \(status)): \(stderr)")
            }
            GPSFakeFixture.pause(milliseconds: 10)
        }
        throw GPSFakeFixture.Failure(description: "gpsd did not listen on \(port): \(stderr)")
    }

    /// Sends sentences as the receiver would, each ended by CR LF.
    public func send(_ lines: [String]) {
        try? receiver?.writeAll(lines.map { $0 + "\r\n" }.joined().utf8)
    }

    public var stderr: String { GPSFakeFixture.read(directory + "/gpsd.err") }

    /// Kills gpsd, closes the receiver and removes gpsd's shared memory and files.
    public func stop() {
        if pid > 0 {
            Process.kill(group: pid)
            Process.wait(pid)
            let gpsdPID = pid
            pid = 0
            for line in GPSFakeFixture.read("/proc/sysvipc/shm").split(separator: "\n").dropFirst() {
                let f = line.split(separator: " ", omittingEmptySubsequences: true)
                guard f.count > 6, let shmid = Int32(f[1]), let cpid = Int32(f[4]), let nattch = Int(f[6]) else { continue }
                if cpid == gpsdPID, nattch == 0 { SharedMemory.remove(id: shmid) }
            }
            SharedMemory.remove(key: 0x4770_0000 | UInt32(port))
        }
        receiver?.close()
        receiver = nil
        for name in ["gpsd.out", "gpsd.err", "control.sock"] { try? Files.unlink(directory + "/" + name) }
        try? Files.removeDirectory(directory)
    }
}
