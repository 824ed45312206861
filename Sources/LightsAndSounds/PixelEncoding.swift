/// A pixel protocol on the SPI wire: one frame of colours to the bytes of one `write`.
public protocol PixelEncoder: Sendable {
    func encode(_ pixels: [RGB]) -> [UInt8]
    /// The SPI clock this encoding is timed for, in hertz.
    var clockHz: Int { get }
}

/// The chip family, `ring.type` in configuration.
public enum PixelType: String, Hashable, Sendable, CaseIterable {
    case ws2812
    case apa102

    public init?(parsing text: String) { self.init(rawValue: text.lowercased()) }

    /// The colour order of the genuine chip, when configuration names none.
    public var defaultOrder: ColourOrder {
        switch self {
        case .ws2812: .grb
        case .apa102: .bgr
        }
    }
}
