/// The siren's sound card, from configuration (keys in Docs/sound.md).
public struct SirenSettings: Hashable, Sendable {
    /// `siren.device`: an ALSA PCM name. "default" follows the system's configuration; a card of
    /// its own is "plughw:CARD=Device" (plughw converts rate and channels, hw does not).
    public var device = "default"
    /// `siren.volume`: 0...1 of full scale, applied to the samples; no mixer is touched, so a
    /// card without a volume control still gets it, and nothing else on the box can turn it down.
    public var volume = 0.8
    /// `siren.rate`: samples a second. 48 kHz is native on most USB cards.
    public var sampleRate = 48_000
    /// `siren.buffer`: how far ahead of the speaker the siren writes. It bounds what a late loop
    /// turn can cost (an underrun is a click, recovered) and not the start: the first samples
    /// play as soon as they are written.
    public var buffer: Duration = .milliseconds(100)
    /// How long a missing sound card waits before the siren tries it again.
    public var retryAfter: Duration = .seconds(30)

    public init() {}
}
