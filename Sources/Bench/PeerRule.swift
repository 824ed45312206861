/// A peer's drag rule, re-implemented from its published behaviour (each conforming type names
/// the source that was read). It sees what the peer sees: each report's position as an offset
/// from the anchor (nil for a report without a position) at its time, and answers whether it is
/// alarming now.
protocol PeerRule {
    mutating func take(t: Double, offset: Offset?, radius: Double) -> Bool
}
