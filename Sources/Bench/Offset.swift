/// East and north meters from the anchor.
struct Offset: Hashable, Sendable {
    var east: Double
    var north: Double
    var length: Double { (east * east + north * north).squareRoot() }
}
