/// Where each pixel sits. The renderer thinks in clock positions (0 at 12 o'clock, increasing
/// clockwise); the ring's wiring may start anywhere and run either way.
public struct RingLayout: Hashable, Sendable {
    public var count: Int
    public var topPixel: Int
    public var clockwise: Bool

    public init(count: Int, topPixel: Int = 0, clockwise: Bool = true) {
        self.count = max(1, count)
        self.topPixel = ((topPixel % self.count) + self.count) % self.count
        self.clockwise = clockwise
    }

    public init(_ settings: RingSettings) {
        self.init(count: settings.pixelCount, topPixel: settings.topPixel, clockwise: settings.clockwise)
    }

    /// The wire index of the pixel at clock position `position`.
    public func physical(_ position: Int) -> Int {
        let p = ((position % count) + count) % count
        return clockwise ? (topPixel + p) % count : (topPixel - p + count) % count
    }

    /// The clock position (0 at 12 o'clock, clockwise) of wire index `index`.
    public func position(ofPhysical index: Int) -> Int {
        let i = ((index % count) + count) % count
        return clockwise ? (i - topPixel + count) % count : (topPixel - i + count) % count
    }

    /// The angle of wire index `index`, in turns clockwise from 12 o'clock.
    public func turns(ofPhysical index: Int) -> Double {
        Double(position(ofPhysical: index)) / Double(count)
    }

    /// Puts a frame drawn in clock positions onto the wire.
    public func toWire(_ positions: [RGB]) -> [RGB] {
        var out = [RGB](repeating: .black, count: count)
        for (p, c) in positions.enumerated() where p < count { out[physical(p)] = c }
        return out
    }
}
