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
        return kill(pid, 0) == 0 || Glibc.errno == EPERM
    }

    public static var hostName: String? {
        var buf = [CChar](repeating: 0, count: 256)
        guard gethostname(&buf, buf.count - 1) == 0 else { return nil }
        return String(cString: buf)
    }

    /// One malloc arena: a single-threaded box does not need one per thread (each costs RSS).
    public static func limitMallocArenas(_ n: Int32) { _ = mallopt(M_ARENA_MAX, n) }
}

/// The terminal, for the commands that draw on one.
public enum Terminal {
    /// Columns and rows of the terminal on `fd`, if it is one.
    public static func size(_ fd: FileDescriptor = .standardOutput) -> (columns: Int, rows: Int)? {
        var ws = winsize()
        guard ioctl(fd.rawValue, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }
}
