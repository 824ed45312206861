import CLinux
import Glibc

/// This process and others: ids, exit, the environment, the host's name.
public enum Process {
    public static var id: Int32 { getpid() }

    public static func exit(_ code: Int32) -> Never { Glibc.exit(code) }

    public static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Whether a process with this pid exists (EPERM: it does, but isn't ours).
    public static func exists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return Glibc.kill(pid, 0) == 0 || Glibc.errno == EPERM
    }

    public static var hostName: String? {
        var buf = [CChar](repeating: 0, count: 256)
        guard gethostname(&buf, buf.count - 1) == 0 else { return nil }
        return buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// One malloc arena: a single-threaded box does not need one per thread (each costs RSS).
    public static func limitMallocArenas(_ n: Int32) { _ = mallopt(M_ARENA_MAX, n) }
}

/// The terminal, for the commands that draw on one.
public enum Terminal {
    /// Columns and rows of the terminal on `fd`, if it is one.
    public static func size(_ fd: FileDescriptor = .standardOutput) -> (columns: Int, rows: Int)? {
        var ws = winsize()
        let ok = withUnsafeMutablePointer(to: &ws) { ioctl(fd.rawValue, UInt(TIOCGWINSZ), $0) } == 0
        guard ok, ws.ws_col > 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }
}

extension Process {
    /// Starts `path` with `arguments` (argv[1...]); stdin from /dev/null, stdout and stderr to
    /// the files named (truncated) or inherited; `environment` replaces the environment when
    /// given; `ownGroup` puts it in a process group of its own, so one `kill(group:)` reaches
    /// what it starts. The child's pid.
    public static func spawn(_ path: String, _ arguments: [String], environment: [String]? = nil,
                             standardOutput: String? = nil, standardError: String? = nil, ownGroup: Bool = false) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if standardOutput != nil || standardError != nil {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let standardOutput { posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        if let standardError { posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // The child starts as a fresh program would: no signal blocked (the loop blocks SIGTERM,
        // SIGINT and SIGHUP for its signalfd, and a child inheriting that could not be stopped),
        // SIGPIPE back to its default.
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attr, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        if ownGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attr, 0)
        }
        posix_spawnattr_setflags(&attr, Int16(flags))
        var cargs = ([path] + arguments).map { strdup($0) } + [nil]
        var cenv = (environment ?? []).map { strdup($0) } + [nil]
        defer { (cargs + cenv).forEach { free($0) } }
        var child: pid_t = 0
        let rc = environment == nil
            ? posix_spawn(&child, path, &actions, &attr, &cargs, environ)
            : posix_spawn(&child, path, &actions, &attr, &cargs, &cenv)
        guard rc == 0 else { throw SystemError(call: "posix_spawn \(path)", errno: Errno(rawValue: rc)) }
        return child
    }

    public enum ChildState: Equatable, Sendable {
        case running
        /// waitpid's status.
        case ended(status: Int32)
        /// Not a child of this process (already reaped).
        case unknown
    }

    /// Reaps a child: waits for it (`block`) or only looks.
    @discardableResult
    public static func wait(_ pid: Int32, block: Bool = true) -> ChildState {
        var status: Int32 = 0
        switch try? Syscall.check("waitpid", { waitpid(pid, &status, block ? 0 : WNOHANG) }) {
        case pid: return .ended(status: status)
        case 0: return .running
        default: return .unknown
        }
    }

    /// Sends `signal` to every process of `pid`'s group.
    public static func kill(group pid: Int32, _ signal: Int32 = SIGKILL) { _ = Glibc.kill(-pid, signal) }
}

