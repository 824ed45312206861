/// Reads tones back out of PCM samples: where each tone starts and ends and its pitch. For the
/// tests that measure the siren from what alsa-lib wrote, and for any later loopback self-test.
///
/// Every upward zero crossing is located between its two samples by linear interpolation;
/// crossings whose periods agree (within `tolerance`) and follow each other without a gap form
/// one tone. Silence has no crossings, so it separates tones by itself.
public enum ToneAnalysis {
    public struct Tone: Hashable, Sendable {
        /// Seconds from the first sample to the tone's first and last upward zero crossing.
        public var start: Double
        public var end: Double
        public var frequency: Double
        public var periods: Int
        /// Largest absolute sample within the tone.
        public var peak: Int
    }

    public static func tones(_ samples: [Int16], sampleRate: Int, tolerance: Double = 0.05) -> [Tone] {
        let rate = Double(sampleRate)
        var crossings: [Double] = []
        for i in 1..<max(1, samples.count) where samples[i - 1] < 0 && samples[i] >= 0 {
            let a = Double(samples[i - 1]), b = Double(samples[i])
            crossings.append((Double(i - 1) + (-a) / (b - a)) / rate)
        }
        var out: [Tone] = []
        var first = 0
        func close(_ last: Int) {
            guard last - first >= 3 else { return }
            let start = crossings[first], end = crossings[last]
            let lo = Int(start * rate), hi = min(samples.count, Int(end * rate) + 1)
            let peak = samples[lo..<hi].reduce(0) { max($0, abs(Int($1))) }
            out.append(Tone(start: start, end: end, frequency: Double(last - first) / (end - start),
                            periods: last - first, peak: peak))
        }
        var i = 1
        while i < crossings.count {
            let period = crossings[i] - crossings[i - 1]
            let reference = i - first >= 2 ? (crossings[i - 1] - crossings[first]) / Double(i - 1 - first) : period
            if abs(period - reference) > tolerance * reference {
                close(i - 1)
                first = i - 1
                // A period that spans silence or a change of pitch starts nothing by itself.
                if i + 1 < crossings.count {
                    let nextPeriod = crossings[i + 1] - crossings[i]
                    if abs(nextPeriod - period) > tolerance * period { first = i }
                }
            }
            i += 1
        }
        close(crossings.count - 1)
        return out
    }
}
