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
        let n = try retryingEINTR { buffer.withUnsafeMutableBufferPointer { aa_gpio_read_edges(handle, $0.baseAddress, 16) } }
        guard n != -Errno.wouldBlock.rawValue else { return [] }
        let count = Int(try Self.check(n, chip: chip, line: line)!)
        return buffer[0..<count].map {
            LineEdge(high: $0.rising != 0, at: Instant(nanoseconds: Int64(bitPattern: $0.timestamp_ns)))
        }
    }

    public func level() throws(GPIOError) -> Bool {
        let v = try retryingEINTR { aa_gpio_get_value(handle) }
        return try Self.check(v, chip: chip, line: line)! == 1
    }

    public func drive(high: Bool) throws(GPIOError) {
        let rc = try retryingEINTR { aa_gpio_set_value(handle, high ? 1 : 0) }
        _ = try Self.check(rc, chip: chip, line: line)
    }

    /// The one place a shim result becomes a value or a typed error.
    @discardableResult
    static func check(_ rc: Int32, chip: String, line: String) throws(GPIOError) -> Int32? {
        guard rc < 0 else { return rc }
        throw GPIOError(errno: -rc, chip: chip, line: line)
    }

    /// The room's EINTR policy: GPIO reads, value reads and writes are retried (they are
    /// idempotent and never block, so a signal can only interrupt them before they take
    /// effect); a release is never retried (the shim frees its handle whatever the kernel said).
    private func retryingEINTR(_ call: () -> Int32) throws(GPIOError) -> Int32 {
        Syscall.retryingNegative(call)
    }
}
