import LightsAndSounds

/// The ring's wiring, from configuration (keys in Docs/ring.md).
public struct SPIRingSettings: Hashable, Sendable {
    /// `ring.device`: the spidev node (enable SPI with `dtparam=spi=on`; MOSI is GPIO 10).
    public var device = "/dev/spidev0.0"
    /// `ring.type`: ws2812 or apa102.
    public var type: PixelType = .ws2812
    /// `ring.colour_order`: nil takes the chip's own (GRB for WS2812, BGR for APA102).
    public var order: ColourOrder?
    /// `ring.spi_hz`: nil takes the encoding's (2.4 MHz for WS2812, 4 MHz for APA102). A WS2812
    /// clock outside 2.1 to 3.0 MHz is refused: its bits would fall out of the chip's timing.
    public var clockHz: Int?

    public init() {}

    public var encoder: any PixelEncoder {
        switch type {
        case .ws2812:
            var clock = clockHz ?? WS2812Encoder.defaultClockHz
            if !WS2812Encoder.clockRange.contains(clock) { clock = WS2812Encoder.defaultClockHz }
            return WS2812Encoder(order: order ?? type.defaultOrder, clockHz: clock)
        case .apa102:
            return APA102Encoder(order: order ?? type.defaultOrder, clockHz: clockHz ?? APA102Encoder.defaultClockHz)
        }
    }
}
