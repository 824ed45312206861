/// A length in meters. Distances, radii and accuracies carry their unit in the type.
public struct Meters: Comparable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral
{
    public var value: Double

    public init(_ value: Double) { self.value = value }
    public init(floatLiteral value: Double) { self.value = value }
    public init(integerLiteral value: Int) { self.value = Double(value) }

    public static func < (a: Meters, b: Meters) -> Bool { a.value < b.value }
    public static func + (a: Meters, b: Meters) -> Meters { Meters(a.value + b.value) }
    public static func - (a: Meters, b: Meters) -> Meters { Meters(a.value - b.value) }
    public static func * (a: Meters, k: Double) -> Meters { Meters(a.value * k) }

    /// Whole meters, the way a skipper reads them ("23 m").
    public var description: String { "\(Int(value.rounded())) m" }
}
