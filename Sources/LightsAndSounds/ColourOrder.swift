/// The order a pixel's chip takes its three colour bytes in. WS2812B is GRB, APA102 is BGR,
/// and clones differ: `ring.colour_order` in configuration.
public enum ColourOrder: String, Hashable, Sendable, CaseIterable {
    case rgb, rbg, grb, gbr, brg, bgr

    /// Parses "GRB", "grb"...; nil for anything else.
    public init?(parsing text: String) {
        self.init(rawValue: text.lowercased())
    }

    /// The three bytes on the wire, first to last.
    public func bytes(_ c: RGB) -> (UInt8, UInt8, UInt8) {
        switch self {
        case .rgb: (c.r, c.g, c.b)
        case .rbg: (c.r, c.b, c.g)
        case .grb: (c.g, c.r, c.b)
        case .gbr: (c.g, c.b, c.r)
        case .brg: (c.b, c.r, c.g)
        case .bgr: (c.b, c.g, c.r)
        }
    }
}
