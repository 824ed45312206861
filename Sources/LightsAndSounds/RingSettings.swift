import WatchCore

/// What the ring needs from configuration. The configuration file's keys (parsed by the
/// Appliance) are given with each field; see Docs/ring.md.
public struct RingSettings: Hashable, Sendable {
    /// `ring.pixels`: pixels on the ring.
    public var pixelCount: Int = 12
    /// `ring.top_pixel`: the index of the pixel at 12 o'clock, as the ring is mounted.
    public var topPixel: Int = 0
    /// `ring.clockwise`: whether pixel indices increase clockwise, seen from the front.
    public var clockwise: Bool = true
    /// `ring.brightness`: the working brightness, in linear light (0...1), while something is
    /// happening or soon after a change.
    public var workingBrightness: Double = 0.25
    /// `ring.night_brightness`: the night glow once all has been calm; low so it does not light
    /// the cabin, and still readable from the bunk.
    public var nightBrightness: Double = 0.08
    /// `ring.calm_after`: how long all must be calm before the ring settles to the night glow.
    public var calmAfter: Duration = .seconds(15 * 60)
    /// The snooze's length (the watch's `snooze` setting), so the countdown is a share of it.
    public var snoozeLength: Duration = .seconds(300)
    /// Whether anything on the box can sound the alarm (a buzzer or a siren fitted). A box that
    /// can't ring must look like one: with nothing to sound, the ring shows the fault marker and
    /// never settles to its night glow, so a state that can't ring is never calm green.
    public var canSound = true

    public init() {}

    /// Ringing is always full brightness: it must wake the crew, not be tasteful.
    public static let ringingBrightness = 1.0
}
