/// Everything the watch reacts to. Time is not an event's field: `Watch.handle(_:at:)` takes it.
public enum Event: Hashable, Sendable {
    case reading(GPSReading)
    /// The debounced arm switch: `on` is the ARM position. Its position at start is one of these.
    case armSwitch(on: Bool)
    case button(Press)
    /// A decision from the command line (mark, radius, snooze, release).
    case decision(Decision)
    case faultRaised(Fault)
    case faultCleared(FaultKind)
    /// Nothing happened but time passed (staleness, snooze end, grace periods).
    case tick
}

/// A button press, classified by duration in the shell (see Docs/controls.md).
public enum Press: String, Hashable, Sendable, CaseIterable {
    /// Under the long-press threshold: snooze a ringing alarm, silence a sounding fault.
    case short
    /// Held past the long-press threshold: mark the anchor (alarm off, no anchor yet).
    case long
    /// Held past the very-long threshold: release the anchor (alarm off).
    case veryLong = "very_long"
}

/// The sound moments of the design system's haptics table. Two outcomes that must be told
/// apart sound different; `LightsAndSounds` maps each to a buzzer and a siren pattern.
public enum Chirp: String, Hashable, Sendable, CaseIterable {
    case mark
    case release
    case arm
    case disarm
    case snooze
    case radiusStep = "radius_step"
    case refusal
    /// A press with nothing to do: the box heard it.
    case acknowledge
    case checking
}

/// What the watch asks the shell to do. The shell performs them in order, with one exception
/// stated in `Watch.handle`: confirmations of accepted decisions wait for the journal's sync.
public enum Action: Hashable, Sendable {
    case verdictChanged(from: PositionVerdict, to: PositionVerdict)
    case alarmChanged(from: AlarmState, to: AlarmState)
    /// Accepted: journal it durably, then confirm (chirp, receipt).
    case accepted(Receipt, chirp: Chirp)
    /// Refused: say so at once, with the reason.
    case refused(Decision, Refusal)
    case faultRaised(Fault)
    case faultCleared(FaultKind)
    /// Start or stop the alarm buzz and siren. Never waits on anything.
    case alarmSound(on: Bool)
    /// Start or stop the repeating fault pattern.
    case faultSound(on: Bool)
    /// A chirp that needs no durable record first (a refusal, an acknowledgement, checking).
    case chirp(Chirp)
    /// A usable fix to keep in the journal's decimated track.
    case track(GPSReading, distance: Meters?)
    /// What the swing has learnt, to keep across a restart (`Watch.restore(...swing:...)`):
    /// handed on while it learns, at least every `SwingEstimator.Settings.saveEvery`, whenever
    /// what is shown of it changes, and after a mark that keeps it.
    case swingLearnt(SwingEstimator.Memory)
}
