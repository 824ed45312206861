/// The shape of a tone on the siren.
public enum Waveform: String, Hashable, Sendable {
    /// A pure tone: the chirps, quiet enough for a sleeping cabin.
    case sine
    /// The first three odd harmonics of a square wave: louder for the same peak and harder to
    /// sleep through; its zero crossings are the fundamental's, so its pitch reads the same.
    case bright

    /// One period of the wave, by table: a sample costs a lookup and an interpolation, not a
    /// polynomial per harmonic, so a whole buffer is cheap even on a Pi Zero. Linear
    /// interpolation over 4096 points is within 3e-7 of the wave (-130 dB).
    @inline(__always) func value(_ phase: Double) -> Double {
        let table = self == .sine ? Self.sineTable : Self.brightTable
        let x = phase * Double(Self.tableSize)
        let i = Int(x)
        let f = x - Double(i)
        return table[i] + f * (table[i + 1] - table[i])
    }

    static let tableSize = 4096

    /// Builds the tables now (they are built on first use otherwise): at start, not in the turn
    /// of the loop that sounds the alarm.
    public static func prepareTables() {
        _ = sineTable.count + brightTable.count
    }

    static let sineTable: [Double] = (0...tableSize).map { sineTurns(Double($0) / Double(tableSize)) }

    static let brightTable: [Double] = {
        let raw = (0...tableSize).map { (i: Int) -> Double in
            let p = Double(i) / Double(tableSize)
            return sineTurns(p) + sineTurns(3 * p) / 3 + sineTurns(5 * p) / 5
        }
        let peak = raw.reduce(0) { max($0, abs($1)) }
        return raw.map { $0 / peak }
    }()
}

/// Turns a sound pattern into 16-bit mono PCM, as a stream: the siren asks for as many samples
/// as the sound card has room for, for as long as the pattern lasts (forever, if it repeats).
///
/// Step boundaries fall on the nearest sample to the pattern's own clock, so a repeating
/// pattern never drifts. The phase runs on across steps (no click between the alarm's two
/// tones); a tone next to silence fades in and out over 2 ms, which removes the click a speaker
/// makes and costs no loudness.
public struct ToneGenerator: Sendable {
    public let pattern: SoundPattern
    public let sampleRate: Int
    public let waveform: Waveform
    /// Peak amplitude in sample units: the volume, scaled here, not on a mixer.
    public let amplitude: Double
    public static let fade: Duration = .milliseconds(2)

    /// The sample index where each step ends, within one pass of the pattern.
    private let ends: [Int]
    private let fadeSamples: Int
    private var position = 0
    private var phase = 0.0
    public private(set) var produced = 0
    public private(set) var finished = false

    /// `volume` 0...1 of full scale.
    public init(pattern: SoundPattern, sampleRate: Int, volume: Double, waveform: Waveform = .sine) {
        self.pattern = pattern
        self.sampleRate = max(1, sampleRate)
        self.waveform = waveform
        self.amplitude = min(1, max(0, volume)) * 32767
        var elapsed: Duration = .zero
        ends = pattern.steps.map { step in
            elapsed += step.duration
            return Int((elapsed.seconds * Double(max(1, sampleRate))).rounded())
        }
        fadeSamples = max(1, Int((Self.fade.seconds * Double(max(1, sampleRate))).rounded()))
        finished = (ends.last ?? 0) == 0
    }

    /// One pass of the pattern, in samples.
    public var passLength: Int { ends.last ?? 0 }

    /// Appends up to `count` samples to `buffer`; fewer only when a one-shot pattern ends.
    /// Returns how many it appended.
    @discardableResult
    public mutating func render(_ count: Int, into buffer: inout [Int16]) -> Int {
        var made = 0
        let pass = passLength
        while made < count, !finished {
            var step = 0
            while ends[step] <= position { step += 1 }
            let start = step == 0 ? 0 : ends[step - 1]
            let end = ends[step]
            let run = min(count - made, end - position)
            if let f = pattern.steps[step].frequency {
                let increment = f / Double(sampleRate)
                let fadeIn = !isTone(step - 1)
                let fadeOut = !isTone(step + 1)
                for k in 0..<run {
                    let j = position + k
                    var env = 1.0
                    if fadeIn { env = min(env, (Double(j - start) + 0.5) / Double(fadeSamples)) }
                    if fadeOut { env = min(env, (Double(end - j) - 0.5) / Double(fadeSamples)) }
                    buffer.append(Int16((amplitude * env * waveform.value(phase)).rounded()))
                    phase += increment
                    if phase >= 1 { phase -= phase.rounded(.down) }
                }
            } else {
                buffer.append(contentsOf: repeatElement(0, count: run))
            }
            position += run
            made += run
            if position >= pass {
                if pattern.repeats { position = 0 } else { finished = true }
            }
        }
        produced += made
        return made
    }

    /// Whether step `i` sounds; wraps around for a repeating pattern, silence beyond a one-shot.
    private func isTone(_ i: Int) -> Bool {
        let n = pattern.steps.count
        if i < 0 || i >= n {
            guard pattern.repeats else { return false }
            return pattern.steps[((i % n) + n) % n].isOn
        }
        return pattern.steps[i].isOn
    }

    /// The whole of a pattern as samples: a one-shot pattern once, a repeating one `passes` times.
    public static func synthesize(
        _ pattern: SoundPattern, sampleRate: Int, volume: Double, waveform: Waveform = .sine, passes: Int = 1
    ) -> [Int16] {
        var g = ToneGenerator(pattern: pattern, sampleRate: sampleRate, volume: volume, waveform: waveform)
        var out: [Int16] = []
        g.render(g.passLength * max(1, pattern.repeats ? passes : 1), into: &out)
        return out
    }
}
