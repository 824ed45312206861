import Posix

/// Facts that tell one run of the box from another, for readers in other processes.
enum BoxIdentity {
    /// The kernel's id for this boot: a snapshot from another boot is never current.
    static func bootID(procRoot: String = "/proc") -> String? {
        Files.readText(procRoot + "/sys/kernel/random/boot_id")?.withoutSpace
    }

    /// CLOCK_MONOTONIC in seconds: the same clock in every process of one boot.
    static func monotonicSeconds() -> Double {
        MonotonicClock.now().seconds
    }

    /// Whether a process with this pid exists and has not died (EPERM means it exists but
    /// isn't ours; a zombie, state Z in /proc/PID/stat, has died and only waits to be reaped).
    static func isAlive(pid: Int32, procRoot: String = "/proc") -> Bool {
        guard Process.exists(pid) else { return false }
        guard let stat = Files.readText("\(procRoot)/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state != "Z" && state != "X"
    }
}
