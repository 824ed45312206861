/// One pixel, 8 bits per channel, after gamma and brightness: what the ring's encoders take.
public struct RGB: Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
    public static let black = RGB(0, 0, 0)
}
