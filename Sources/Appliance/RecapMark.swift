#if canImport(Glibc)
import Glibc
#endif
import Journal

/// Where `recap --ack` keeps "looked at up to": one number (unix seconds) in
/// `<state dir>/recap-seen`. Replaced by rename; not synced: a mark lost to a power cut only
/// shows the same recap again, which costs nothing but a second look.
enum RecapMark {
    static let name = "recap-seen"

    static func read(stateDirectory: String) -> WallTime? {
        guard let text = Posix.readText(stateDirectory + "/" + name), let s = Double(text.withoutSpace), s.isFinite else { return nil }
        return WallTime(seconds: s)
    }

    static func write(_ t: WallTime, stateDirectory: String) throws {
        try Posix.makeDirectories(stateDirectory, mode: 0o755)
        let path = stateDirectory + "/" + name
        let tmp = path + ".tmp"
        let fd = try Posix.check("open \(tmp)") { open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        defer { Posix.close(fd) }
        try Posix.writeAll(fd, Array("\(FixedPoint.fixed(t.seconds, 3))\n".utf8))
        try Posix.check("rename \(tmp)") { rename(tmp, path) }
    }
}
