import WatchCore

/// Plays one `SoundPattern` against the loop's monotonic clock, without a timer of its own:
/// the loop asks `isOn(at:)` and arms its one timer for `nextChange(after:)`. Pure, so a test
/// walks a pattern with a manual clock.
///
/// Adjacent steps with the same on/off state are one level to the buzzer, so `nextChange` skips
/// boundaries where nothing changes: the loop wakes only when the line must move.
public struct PatternPlayer: Hashable, Sendable {
    public private(set) var pattern: SoundPattern?
    public private(set) var startedAt: Instant = .zero

    public init() {}

    public mutating func start(_ pattern: SoundPattern, at now: Instant) {
        self.pattern = pattern
        startedAt = now
    }

    public mutating func stop() { pattern = nil }

    /// True while a pattern is playing: a repeating one until stopped, a chirp until its end.
    public func isPlaying(at now: Instant) -> Bool {
        guard let pattern, pattern.length > .zero else { return false }
        return pattern.repeats || now - startedAt < pattern.length
    }

    /// Whether the sound (the buzzer) is on at `now`.
    public func isOn(at now: Instant) -> Bool {
        guard let pattern, isPlaying(at: now), now >= startedAt else { return false }
        let t = offset(of: now, in: pattern)
        var end = Duration.zero
        for step in pattern.steps {
            end += step.duration
            if t < end { return step.isOn }
        }
        return false
    }

    /// The first instant after `now` at which `isOn` changes, or nil if it never will (stopped,
    /// a chirp that has ended, or a pattern that never changes level).
    public func nextChange(after now: Instant) -> Instant? {
        guard let pattern, isPlaying(at: now) else { return nil }
        if now < startedAt { return startedAt }
        let current = isOn(at: now)
        // Scan boundaries from the current cycle on; two cycles are enough to find a change in
        // a repeating pattern, and a chirp's only candidates lie in its one cycle.
        // Spelled out in steps: Swift 6.0 (the Pi's compiler) can't type the one-line ternary.
        var intoCycle = Duration.zero
        if pattern.repeats {
            let elapsed: Duration = now - startedAt
            intoCycle = elapsed - offset(of: now, in: pattern)
        }
        let cycleStart = startedAt + intoCycle
        let cycles = pattern.repeats ? 2 : 1
        var boundary = cycleStart
        for _ in 0..<cycles {
            for step in pattern.steps {
                boundary = boundary + step.duration
                guard boundary > now else { continue }
                if isOn(at: boundary) != current { return boundary }
            }
        }
        // A chirp that ends while on goes off at its end (isOn is false there, so the scan finds
        // it); a pattern all on or all off never changes.
        return nil
    }

    /// Where `now` falls inside the pattern's cycle.
    private func offset(of now: Instant, in pattern: SoundPattern) -> Duration {
        let elapsed = now - startedAt
        guard pattern.repeats else { return elapsed }
        let length = pattern.length.nanoseconds
        return .nanoseconds(elapsed.nanoseconds % length)
    }
}
