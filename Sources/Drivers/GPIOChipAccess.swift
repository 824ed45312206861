import WatchCore

/// One edge on an input line, with the kernel's CLOCK_MONOTONIC timestamp (the loop's clock).
public struct LineEdge: Hashable, Sendable {
    public var high: Bool
    public var at: Instant
    public init(high: Bool, at: Instant) {
        self.high = high
        self.at = at
    }
}

/// A requested input line: pull-up, both edges. The real one is `GPIOLineRequest`; tests use
/// a fake chip.
public protocol GPIOInputLine: AnyObject {
    /// The descriptor to poll for POLLIN.
    var fd: Int32 { get }
    /// Pending edges, oldest first; empty when none. Never blocks.
    func readEdges() throws(GPIOError) -> [LineEdge]
    /// The physical level now (true is high).
    func level() throws(GPIOError) -> Bool
}

/// A requested output line.
public protocol GPIOOutputLine: AnyObject {
    func drive(high: Bool) throws(GPIOError)
}

/// Finds and requests lines. The real one is `GPIOChips` over libgpiod; tests use a fake.
public protocol GPIOChipAccess: AnyObject {
    func requestInput(_ address: GPIOLineAddress, consumer: String) throws(GPIOError) -> any GPIOInputLine
    /// The line is driven to `high` from the instant it is requested.
    func requestOutput(_ address: GPIOLineAddress, consumer: String, high: Bool) throws(GPIOError) -> any GPIOOutputLine
}
