import Posix
import LightsAndSounds
import WatchCore

/// Something the event loop polls: every input driver is one. The loop calls `pollRequests()`
/// before each poll (descriptors may change across reconnects: each with the events it
/// `wanted`), and `service` when one of its descriptors is ready (each with the events that
/// `happened`) or its deadline has passed. `service` reads a bounded batch and never
/// blocks.
public protocol Pollable: AnyObject {
    func pollRequests() -> [PollDescriptor]
    /// `ready` holds this source's descriptors whose events happened (empty on a deadline).
    func service(ready: [PollDescriptor], now: Instant) -> [Event]
    /// When this source needs servicing even with no I/O (backoff, staleness), if ever: the
    /// loop's timer wakes for it then at the latest.
    func nextDeadline() -> Instant?
    /// From when a turn that happens anyway (a GPS reading's) serves this source without I/O.
    /// Earlier than `nextDeadline` for work that may come a little early (a periodic check),
    /// so it rides on a turn the loop takes anyway and the timer rarely wakes for it alone.
    /// By default the same as `nextDeadline`.
    func dueFrom() -> Instant?
}

extension Pollable {
    public func dueFrom() -> Instant? { nextDeadline() }
}

/// The buzzer: one output line. Patterns are timed by the loop's timer, never by sleeping.
public protocol BuzzerLine: AnyObject {
    func set(on: Bool)
}

/// The LED ring: shows one frame of pixels (already rendered and gamma-corrected).
public protocol RingOutput: AnyObject {
    func show(_ pixels: [RGB]) throws
}

/// The siren: plays the alarm, the fault pattern and chirps without blocking the loop; its
/// sound card's descriptors join the loop's poll (`Pollable`), and `service` keeps it fed.
/// The alarm outranks everything; a chirp interrupts the fault pattern, which then resumes.
public protocol SirenOutput: Pollable {
    /// On: sound at once (`.alarmSound(on: true)`). Off: silent at once, nothing drained.
    func setAlarm(_ on: Bool, now: Instant)
    /// The repeating fault pattern (`.faultSound(on:)`), under the alarm.
    func setFault(_ on: Bool, now: Instant)
    /// Once; ignored while the alarm sounds, which says more than any chirp.
    func chirp(_ chirp: Chirp, now: Instant)
    /// A decision the journal could not make durable (`SoundDesign.notSaved`), played like a
    /// chirp in place of the confirmation it did not earn.
    func notSaved(now: Instant)
    /// Silence at once, everything off (shutdown).
    func stopAll()
}
