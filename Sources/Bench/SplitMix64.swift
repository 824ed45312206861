import Posix

/// The benchmark's one source of randomness: SplitMix64 (Steele, Lea and Flood 2014), seeded per
/// scenario so every table is reproducible bit for bit on any machine.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    private var spareGaussian: Double?

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * uniform() }

    mutating func chance(_ p: Double) -> Bool { uniform() < p }

    /// Standard normal, by the polar Box-Muller method.
    mutating func gaussian() -> Double {
        if let g = spareGaussian {
            spareGaussian = nil
            return g
        }
        while true {
            let u = 2 * uniform() - 1, v = 2 * uniform() - 1
            let s = u * u + v * v
            if s > 0, s < 1 {
                let k = (-2 * Math.log(s) / s).squareRoot()
                spareGaussian = v * k
                return u * k
            }
        }
    }

    /// Exponentially distributed with the given mean.
    mutating func exponential(mean: Double) -> Double { -mean * Math.log(1 - uniform()) }

    /// A child generator for one part of a scenario, so adding a draw in one part doesn't shift
    /// every other part's numbers.
    mutating func fork(_ salt: UInt64) -> SplitMix64 { SplitMix64(seed: next() ^ (salt &* 0xD1B5_4A32_D192_ED03)) }
}
