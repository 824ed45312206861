import Posix
import Recordings
import WatchCore

/// The real stationary captures, found through the data set's PROVENANCE.md: every capture whose
/// state there reads "stationary". The long ones ("stationary" class) lend their noise to the
/// simulation; all of them, short ones too, are replayed as real negatives.
struct NoiseLibrary {
    struct Entry {
        var path: String
        var longEnough: Bool
        var capture: NoiseCapture
    }

    let entries: [Entry]
    /// The leaving-berth capture: moored, then under way (the real positive).
    let leavingBerth: NoiseCapture?

    /// Captures that feed the simulated receivers: long enough to hold slow wander.
    var sources: [NoiseCapture] { entries.filter(\.longEnough).map(\.capture) }

    static let leavingBerthPath = "avnav/segments/nmea-20130630_L7478-9454_leaving-berth.log"

    init(directory: String) throws {
        let provenance = String(decoding: try Files.read(directory + "/PROVENANCE.md"), as: UTF8.self)
        var entries: [Entry] = []
        for line in provenance.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters() }
            guard cells.count >= 11 else { continue }
            let path = String(cells[1].filter { $0 != "`" })
            let cls = cells[cells.count - 3], state = cells[cells.count - 2]
            guard state.hasPrefix("stationary") else { continue }
            guard let capture = NoiseLibrary.load(directory + "/" + path, name: path) else { continue }
            entries.append(Entry(path: path, longEnough: cls == "stationary", capture: capture))
        }
        self.entries = entries
        leavingBerth = NoiseLibrary.load(directory + "/" + NoiseLibrary.leavingBerthPath, name: NoiseLibrary.leavingBerthPath)
    }

    static func load(_ path: String, name: String) -> NoiseCapture? {
        guard let bytes = try? Files.read(path), let log = try? LogReader.read(bytes: bytes) else { return nil }
        return NoiseCapture(name: name, log: log)
    }
}

extension Substring {
    func trimmingCharacters() -> Substring {
        var s = self
        while let f = s.first, f == " " { s.removeFirst() }
        while let l = s.last, l == " " { s.removeLast() }
        return s
    }
}
