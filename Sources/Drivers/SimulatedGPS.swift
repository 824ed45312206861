import Posix
import WatchCore

/// A GPS with no device: a scripted boat, or a recorded log played at its own pace. It has no
/// descriptor; it asks the loop to wake it when its next fix is due.
public final class SimulatedGPS: Pollable {
    public enum Source: Sendable {
        case script(BoatScript)
        /// Readings whose `received` is file time from the start of the log.
        case recording([GPSReading])
    }

    private let source: Source
    private let start: Instant
    /// Script seconds per real second (1 in `run`, more in the demo).
    private let speed: Double
    private var index = 0

    public init(_ source: Source, start: Instant, speed: Double = 1) {
        self.source = source
        self.start = start
        self.speed = speed
    }

    /// Script time of fix `index`.
    private func fixTime(_ i: Int) -> Double? {
        switch source {
        case .script(let s): return Double(i) <= s.end ? Double(i) : nil
        case .recording(let r): return i < r.count ? r[i].received.seconds : nil
        }
    }

    public func pollRequests() -> [PollDescriptor] { [] }

    public func nextDeadline() -> Instant? {
        fixTime(index).map { start + .seconds($0 / speed) }
    }

    public func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        var out: [Event] = []
        while let t = fixTime(index), start + .seconds(t / speed) <= now {
            switch source {
            case .script(let s): out.append(.reading(s.reading(second: index, received: now)))
            case .recording(let r):
                var reading = r[index]
                reading.received = now
                out.append(.reading(reading))
            }
            index += 1
        }
        return out
    }
}
