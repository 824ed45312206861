import Drivers
import Posix
import LightsAndSounds
import WatchCore

/// Plays sound patterns on a `BuzzerLine`, timed by the loop: `play` and `stop` set the line at
/// once, the loop arms its timer for `nextDeadline()` and calls `service` then, which moves the
/// line to where the pattern is at that instant. Nothing sleeps; a late wake-up lands on the
/// pattern's current step, not on a step that should already be over.
final class BuzzerPlayer: Pollable {
    private let line: any BuzzerLine
    private(set) var player = PatternPlayer()
    private var lineOn = false
    private var lastNow: Instant = .zero

    init(line: any BuzzerLine) {
        self.line = line
        line.set(on: false)
    }

    func play(_ pattern: SoundPattern, now: Instant) {
        player.start(pattern, at: now)
        apply(now)
    }

    func stop(now: Instant) {
        player.stop()
        apply(now)
    }

    /// True while a pattern is still sounding (a chirp until its end, a repeating one until
    /// stopped).
    func isPlaying(now: Instant) -> Bool { player.isPlaying(at: now) }

    func pollRequests() -> [PollDescriptor] { [] }

    func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        apply(now)
        return []
    }

    func nextDeadline() -> Instant? { player.nextChange(after: lastNow) }

    private func apply(_ now: Instant) {
        lastNow = now
        let on = player.isOn(at: now)
        guard on != lineOn else { return }
        lineOn = on
        line.set(on: on)
    }
}
