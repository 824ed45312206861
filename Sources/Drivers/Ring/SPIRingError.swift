import Posix
import WatchCore

/// Why the ring is dark, with the Systems Check line the skipper reads.
public enum SPIRingError: Error, Hashable, CustomStringConvertible {
    case open(path: String, errno: Errno)
    case configure(path: String, setting: String, errno: Errno)
    case write(path: String, errno: Errno)
    case shortWrite(path: String, wrote: Int, of: Int)

    public var description: String {
        switch self {
        case .open(let path, let e) where e == .notFound:
            "LED ring: \(path) is missing, the ring is dark"
        case .open(let path, let e):
            "LED ring: can't open \(path) (\(e)), the ring is dark"
        case .configure(let path, let setting, let e):
            "LED ring: \(path) refused its \(setting) (\(e)), the ring is dark"
        case .write(let path, let e) where e == .messageTooLong:
            "LED ring: a frame is larger than \(path) takes in one write (raise spidev.bufsiz), the ring is dark"
        case .write(let path, let e):
            "LED ring: writing to \(path) failed (\(e)), the ring is dark"
        case .shortWrite(let path, let wrote, let of):
            "LED ring: \(path) took \(wrote) of \(of) bytes, the ring is dark"
        }
    }

    /// The named Systems Check fault. It pushes: a dark ring at night reads as "nothing to see".
    public var fault: Fault { Fault(.ledRing, description) }
}
