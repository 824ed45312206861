/// Where a pattern is at a moment, for outputs that switch on and off on the loop's timer (the
/// buzzer): no sleeping, just "is it on now" and "when does that change".
extension SoundPattern {
    /// The step sounding `elapsed` after the pattern began; nil once a one-shot pattern is over.
    public func step(at elapsed: Duration) -> Step? {
        guard let (index, _) = position(at: elapsed) else { return nil }
        return steps[index]
    }

    /// Whether the buzzer is on `elapsed` after the pattern began.
    public func isOn(at elapsed: Duration) -> Bool { step(at: elapsed)?.isOn ?? false }

    /// The next moment after `elapsed` when the step changes (or the pattern ends).
    public func nextChange(after elapsed: Duration) -> Duration? {
        guard let (_, stepEnd) = position(at: elapsed) else { return nil }
        return stepEnd
    }

    /// The index of the step at `elapsed` and when that step ends, from the pattern's start.
    private func position(at elapsed: Duration) -> (Int, Duration)? {
        let total = length
        guard total > .zero, elapsed >= .zero else { return nil }
        var passStart: Duration = .zero
        if repeats {
            let passes = elapsed.nanoseconds / total.nanoseconds
            passStart = .nanoseconds(passes * total.nanoseconds)
        } else if elapsed >= total {
            return nil
        }
        var end = passStart
        for (i, s) in steps.enumerated() {
            end += s.duration
            if elapsed < end { return (i, end) }
        }
        return nil
    }
}
