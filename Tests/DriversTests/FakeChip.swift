@testable import Drivers
import WatchCore

/// A chip in memory: lines by name, each with a level, a queue of stamped edges, and an error to
/// give on request (missing, busy, not allowed). What a test does to a fake line is what a hand
/// or a wire does to a real one.
final class FakeChip: GPIOChipAccess {
    final class Line: GPIOInputLine, GPIOOutputLine {
        let fd: Int32
        var high: Bool
        var pending: [LineEdge] = []
        var driven: [Bool] = []
        var failReads: GPIOError?
        init(fd: Int32, high: Bool) {
            self.fd = fd
            self.high = high
        }
        func readEdges() throws(GPIOError) -> [LineEdge] {
            if let failReads { throw failReads }
            let batch = Array(pending.prefix(16))
            pending.removeFirst(batch.count)
            return batch
        }
        func level() throws(GPIOError) -> Bool {
            if let failReads { throw failReads }
            return high
        }
        func drive(high: Bool) throws(GPIOError) {
            if let failReads { throw failReads }
            self.high = high
            driven.append(high)
        }
        /// The contact moves at `t`: the kernel stamps an edge if the level changed.
        func move(high: Bool, at t: Instant) {
            guard high != self.high else { return }
            self.high = high
            pending.append(LineEdge(high: high, at: t))
        }
    }

    var lines: [String: Line] = [:]
    /// Requests that fail, by line name.
    var refusing: [String: GPIOError] = [:]
    var requests: [String] = []
    private var nextFD: Int32 = 100

    func add(_ name: String, high: Bool = true) -> Line {
        nextFD += 1
        let line = Line(fd: nextFD, high: high)
        lines[name] = line
        return line
    }

    private func take(_ address: GPIOLineAddress) throws(GPIOError) -> Line {
        guard case .named(let name, _) = address else { throw .lineNotFound(line: address.lineLabel) }
        requests.append(name)
        if let error = refusing[name] { throw error }
        guard let line = lines[name] else { throw .lineNotFound(line: name) }
        return line
    }

    func requestInput(_ address: GPIOLineAddress, consumer: String) throws(GPIOError) -> any GPIOInputLine {
        try take(address)
    }

    func requestOutput(_ address: GPIOLineAddress, consumer: String, high: Bool) throws(GPIOError) -> any GPIOOutputLine {
        let line = try take(address)
        line.high = high
        line.driven.append(high)
        return line
    }
}

extension Instant {
    static func ms(_ n: Int64) -> Instant { Instant(nanoseconds: n * 1_000_000) }
}
