import CGPIOShim
import Posix
import WatchCore

/// One line held through libgpiod (via the CGPIOShim, which alone knows v1 from v2). Releasing
/// it (deinit) gives the line back to the kernel. Not thread-safe: the one event loop owns it.
public final class GPIOLineRequest: GPIOInputLine, GPIOOutputLine {
    private let handle: OpaquePointer
    private let chip: String
    private let line: String
    public let fd: Int32

    init(handle: OpaquePointer, chip: String, line: String) {
        self.handle = handle
        self.chip = chip
        self.line = line
        self.fd = aa_gpio_request_fd(handle)
    }

    deinit { aa_gpio_release(handle) }

    /// The libgpiod API this binary was built against (1 or 2).
    public static var apiVersion: Int { Int(aa_gpio_api_version()) }

    public func readEdges() throws(GPIOError) -> [LineEdge] {
        var buffer = [aa_gpio_edge](repeating: aa_gpio_edge(), count: 16)
        let read = Syscall.negative { buffer.withUnsafeMutableBufferPointer { aa_gpio_read_edges(handle, $0.baseAddress, 16) } }
        if case .failure(let e) = read, e.isWouldBlock { return [] }
        let count = Int(try value(read))
        return buffer[0..<count].map {
            LineEdge(high: $0.rising != 0, at: Instant(nanoseconds: Int64(bitPattern: $0.timestamp_ns)))
        }
    }

    public func level() throws(GPIOError) -> Bool {
        try value(Syscall.negative { aa_gpio_get_value(handle) }) == 1
    }

    public func drive(high: Bool) throws(GPIOError) {
        _ = try value(Syscall.negative { aa_gpio_set_value(handle, high ? 1 : 0) })
    }

    /// The one place a shim result becomes a value or a typed error. Reads, value reads and
    /// writes come through the room's EINTR policy (`Syscall.negative`: they are idempotent and
    /// never block, so a signal can only interrupt them before they take effect); a release is
    /// never retried (the shim frees its handle whatever the kernel said).
    @discardableResult
    static func check(_ rc: Int32, chip: String, line: String) throws(GPIOError) -> Int32 {
        guard let e = Errno(negated: rc) else { return rc }
        throw GPIOError(errno: e, chip: chip, line: line)
    }

    private func value(_ result: Result<Int32, Errno>) throws(GPIOError) -> Int32 {
        switch result {
        case .success(let v): return v
        case .failure(let e): throw GPIOError(errno: e, chip: chip, line: line)
        }
    }
}
