#if canImport(Glibc)
import Glibc
#endif

/// Facts that tell one run of the box from another, for readers in other processes.
enum BoxIdentity {
    /// The kernel's id for this boot: a snapshot from another boot is never current.
    static func bootID(procRoot: String = "/proc") -> String? {
        Posix.readText(procRoot + "/sys/kernel/random/boot_id")?.withoutSpace
    }

    /// CLOCK_MONOTONIC in seconds: the same clock in every process of one boot.
    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Whether a process with this pid exists (EPERM means it exists but isn't ours).
    static func isAlive(pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
