/// When a record happened: the box's monotonic instant (orders records within a boot, drives
/// nothing after a restart) and the wall time (for people and for "where was the boat at T").
public struct Stamp: Hashable, Sendable {
    public var monotonic: Instant
    public var wall: WallTime

    public init(monotonic: Instant, wall: WallTime) {
        self.monotonic = monotonic
        self.wall = wall
    }
}
