import WatchCore

/// The siren's writes held to the box's clock. A card that keeps time takes samples only as it
/// plays them, so the siren is never more than a buffer ahead; ALSA's `null` plugin or a `file`
/// sink takes them as fast as they come, and a siren that wrote whenever the device had room
/// would spin (measured: 90% of a core, 313,640 wakeups in 4 s; 4.8 GB into a file sink in
/// 25 s). So the siren writes no further ahead of the clock than its buffer: a real card is
/// never held back by this (it played less than the clock says), and a device that does not keep
/// time is fed by the loop's timer instead of its always-ready descriptors.
///
/// And a device that can't be paced, one that wakes the loop again and again with no room for
/// sound, is a fault (`wokeForNothing`), never a busy loop.
struct SirenPace: Hashable, Sendable {
    let rate: Int
    /// Frames the siren may write ahead of the clock: the device's buffer.
    let ahead: Int
    let start: Instant
    private(set) var written = 0

    /// Wakes from the device that took less than a period of sound, within the current second.
    private var idleSince: Instant
    private var idleWakes = 0
    /// More of those in a second than this, and the device can't be paced. A card wakes the loop
    /// once per period (a quarter of a 100 ms buffer: 40 times a second) and takes a period each
    /// time; 200 wakes that took nothing is a spin.
    static let idleWakesPerSecond = 200

    init(rate: Int, ahead: Int, start: Instant) {
        self.rate = rate
        self.ahead = ahead
        self.start = start
        self.idleSince = start
    }

    /// Frames the clock lets the siren write now. The clock is given a 1/64 lead (1.6%, where a
    /// sound card's crystal is within 0.01% of the box's): a real card that runs a little fast is
    /// never starved by it, and a device that does not keep time gets 1.6% more than it plays.
    func room(at now: Instant) -> Int {
        let frames = byClock(now - start)
        return max(0, frames + frames / 64 + ahead - written)
    }

    mutating func wrote(_ frames: Int) { written += frames }

    /// When the clock lets the siren write `frames` more (now, if it already does).
    func when(room frames: Int) -> Instant {
        // Solve byClock(t) * 65/64 + ahead - written >= frames for t, in microseconds.
        let needed = max(0, written + frames - ahead)
        let clockFrames = (needed * 64 + 64) / 65 + 1
        let micros = (Int64(clockFrames) * 1_000_000 + Int64(rate) - 1) / Int64(rate)
        return start + .microseconds(micros + 1)
    }

    /// A wake from the device that took `frames`, fewer than `period`: true once such wakes come
    /// too often to be anything but a device that can't be paced.
    mutating func woke(took frames: Int, period: Int, at now: Instant) -> Bool {
        guard frames < period else { return false }
        if now - idleSince >= .seconds(1) {
            idleSince = now
            idleWakes = 0
        }
        idleWakes += 1
        return idleWakes > Self.idleWakesPerSecond
    }

    /// Frames in `d` at the rate, without overflow for any night's length.
    private func byClock(_ d: Duration) -> Int {
        let micros = max(0, d.nanoseconds / 1000)
        return Int(micros / 1_000_000 * Int64(rate) + (micros % 1_000_000) * Int64(rate) / 1_000_000)
    }
}
