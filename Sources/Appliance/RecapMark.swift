import Posix
import WatchCore

/// Where `recap --ack` keeps "looked at up to": one number (unix seconds) in
/// `<state dir>/recap-seen`. Replaced by rename; not synced: a mark lost to a power cut only
/// shows the same recap again, which costs nothing but a second look.
enum RecapMark {
    static let name = "recap-seen"

    static func read(stateDirectory: String) -> WallTime? {
        guard let text = Files.readText(stateDirectory + "/" + name), let s = Double(text.withoutSpace), s.isFinite else { return nil }
        return WallTime(seconds: s)
    }

    static func write(_ t: WallTime, stateDirectory: String) throws {
        try Files.makeDirectories(stateDirectory, mode: 0o755)
        try Files.writeAtomically("\(FixedPoint.fixed(t.seconds, 3))\n".utf8, to: stateDirectory + "/" + name, durable: false)
    }
}
