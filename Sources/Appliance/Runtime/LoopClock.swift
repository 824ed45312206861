import Posix
import WatchCore

/// The running box's two clocks as its loop reads them: both together, once a turn (`tick`,
/// called by `EventLoop` alone), and that one reading (`turn`) is the time of everything the
/// turn does. The monotonic half is the `now` every call is given; the wall half stamps the
/// journal's records, the snapshot and the network outputs' sentences, read from `turn` by
/// the parts `Wiring` hands this clock. No part reads a system clock during a turn, so every
/// part of one turn tells the same time, and a turn costs two clock reads, not one a part.
/// Tests inject `read` (a fake, counting clock: `OneClockReadingTests`).
final class LoopClock {
    private let read: () -> Stamp
    /// The last reading: this turn's time while the loop serves it.
    private(set) var turn: Stamp

    init(read: @escaping () -> Stamp = LoopClock.system) {
        self.read = read
        turn = read()
    }

    /// Reads both clocks: the loop's, once a turn.
    @discardableResult
    func tick() -> Stamp {
        turn = read()
        return turn
    }

    /// This turn's wall time.
    var wall: WallTime { turn.wall }

    /// CLOCK_MONOTONIC and CLOCK_REALTIME.
    static func system() -> Stamp { Stamp(monotonic: MonotonicClock.now(), wall: .now()) }
}
