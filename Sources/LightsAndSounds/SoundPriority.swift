/// Which of the box's sounds is heard now, for both voices (the buzzer's `BuzzerAndSiren` and the
/// siren): the one place the priority is decided. The alarm outranks everything, and a one-shot
/// sound (a chirp, "not saved", test-alarm's pattern) asked for while it rings is dropped: the
/// alarm says more. A one-shot plays over the fault pattern, which resumes when it ends; a new
/// one-shot replaces the one playing. Each voice keeps one of these, tells it what the box
/// means, plays `heard` in its own patterns and says when its one-shot has ended (the buzzer by
/// the pattern's length, the siren when its last samples have left the speaker). Pure.
public struct SoundPriority: Sendable, Hashable {
    /// What is heard: each voice has its own pattern for the alarm and the fault.
    public enum Sound: Sendable, Hashable {
        case alarm, oneShot, fault
    }

    public private(set) var alarm = false
    public private(set) var fault = false
    /// The one-shot sound playing, until its voice says it has ended.
    public private(set) var oneShot: SoundPattern?

    public init() {}

    /// What is heard now; nil: silence.
    public var heard: Sound? {
        if alarm { return .alarm }
        if oneShot != nil { return .oneShot }
        if fault { return .fault }
        return nil
    }

    /// The alarm on or off. On cuts any one-shot (it is not resumed after the alarm).
    public mutating func setAlarm(_ on: Bool) {
        alarm = on
        if on { oneShot = nil }
    }

    public mutating func setFault(_ on: Bool) { fault = on }

    /// A one-shot sound: false, and nothing changes, while the alarm sounds.
    public mutating func play(_ pattern: SoundPattern) -> Bool {
        guard !alarm else { return false }
        oneShot = pattern
        return true
    }

    /// The voice's one-shot has ended: the fault pattern, if on, is heard again.
    public mutating func oneShotEnded() { oneShot = nil }

    /// Everything off (shutdown).
    public mutating func silence() { self = SoundPriority() }
}
