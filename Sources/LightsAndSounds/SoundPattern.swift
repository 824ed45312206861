import WatchCore

/// A sound the box makes, as steps both outputs can play: the buzzer is on during any step with
/// a tone, the siren plays the step's frequency. Timed by the event loop's monotonic timer.
public struct SoundPattern: Hashable, Sendable {
    public struct Step: Hashable, Sendable {
        /// Tone frequency in hertz for the siren; nil is silence (buzzer off).
        public var frequency: Double?
        public var duration: Duration
        public init(_ frequency: Double?, _ duration: Duration) {
            self.frequency = frequency
            self.duration = duration
        }
        public var isOn: Bool { frequency != nil }
    }

    public var steps: [Step]
    /// Repeats until stopped (the alarm, the fault pattern) or plays once (a chirp).
    public var repeats: Bool

    public init(_ steps: [Step], repeats: Bool = false) {
        self.steps = steps
        self.repeats = repeats
    }

    public var length: Duration { steps.reduce(.zero) { $0 + $1.duration } }
}
