import Posix

/// One streaming connection to gpsd, on a socket the box opened itself: the non-blocking
/// connect is `TCPConnectProbe`'s, polled by the loop; this sends gpsd the WATCH request that
/// starts the JSON reports, reads one message at a time without blocking, and closes. Nothing
/// here waits: no libgps (its `gps_open` connected blocking, and resolved names).
final class GPSDConnection {
    enum OpenError: Error, Equatable {
        /// The WATCH request could not be sent whole at once (a fresh socket's buffer is empty,
        /// so this is a connection already gone).
        case stream(errno: Errno?)
    }

    enum ReadResult {
        case message(GPSDMessage)
        /// A line that is not a JSON object gpsd would send.
        case garbage
        /// No complete line buffered: wait for the next poll.
        case none
        /// gpsd closed the connection (nil) or the socket failed.
        case closed(errno: Errno?)
    }

    /// What libgps's `gps_stream(WATCH_ENABLE | WATCH_JSON)` sent: reports as JSON lines.
    static let watch = Array(#"?WATCH={"enable":true,"json":true};"#.utf8)

    private var socket: FileDescriptor?
    var isOpen: Bool { socket != nil }

    deinit { close() }

    /// The socket to poll for input, while open.
    var fd: Int32? { socket?.rawValue }

    /// Takes over `fd`, a connected non-blocking stream socket (`TCPConnectProbe.takeSocket`),
    /// and asks gpsd for JSON reports. The descriptor is this connection's from here on, closed
    /// by `close` even when this throws.
    func adopt(_ fd: Int32) throws(OpenError) {
        close()
        let socket = FileDescriptor(adopting: fd)
        self.socket = socket
        let sent: Int?
        do {
            sent = try socket.sendNow(Self.watch)
        } catch {
            close()
            throw .stream(errno: (error as? SystemError)?.errno)
        }
        if sent != Self.watch.count {
            close()
            throw .stream(errno: .wouldBlock)
        }
    }

    /// Reads at most one message: the next whole line in the buffer, or, when none is there, one
    /// non-blocking recv() and then the next whole line. gpsd's reports are read here, not by
    /// gps_read: a TPV (ten a second at 10 Hz) is parsed once, by `GPSDFix.tpv`, straight from
    /// the bytes; the rare other classes go through `GPSDLine`.
    func read() -> ReadResult {
        guard isOpen, let socket else { return .closed(errno: .badDescriptor) }
        if let r = nextMessage() { return r }
        while true {
            if filled == buffer.count {
                // A line longer than anything gpsd sends: not gpsd. Drop it whole.
                filled = 0
                start = 0
                return .garbage
            }
            let received: Int?
            do {
                received = try buffer.withUnsafeMutableBytes { raw in
                    try socket.receiveNow(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                }
            } catch {
                return .closed(errno: (error as? SystemError)?.errno)
            }
            guard let got = received else { return .none }
            if got == 0 { return .closed(errno: nil) }
            filled += got
            return nextMessage() ?? .none
        }
    }

    /// The next buffered line that says something (blank lines skipped).
    private func nextMessage() -> ReadResult? {
        while let line = nextLine() {
            let r = classify(line)
            if case .none = r { continue }
            return r
        }
        return nil
    }

    /// The bytes gpsd sent and the box has not read yet, `start..<filled`.
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    private var start = 0
    private var filled = 0

    /// The next whole line (without its newline) as a range of `buffer`, compacting first.
    private func nextLine() -> Range<Int>? {
        if start > 0, start == filled {
            start = 0
            filled = 0
        }
        let nl: Int? = buffer.withUnsafeBytes { b in
            Memory.firstIndex(of: 0x0A, in: UnsafeRawBufferPointer(rebasing: b[start..<filled])).map { start + $0 }
        }
        guard let nl else {
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    raw.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: filled - start)
                }
                filled -= start
                start = 0
            }
            return nil
        }
        let line = start..<nl
        start = nl + 1
        return line
    }

    private func classify(_ range: Range<Int>) -> ReadResult {
        buffer.withUnsafeBufferPointer { all in
            var bytes = UnsafeBufferPointer(rebasing: all[range])
            while let last = bytes.last, last == 0x0D || last == 0x20 { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
            if bytes.isEmpty { return .none }
            return GPSDMessage.classify(bytes).map { .message($0) } ?? .garbage
        }
    }

    /// True when the peer has closed the socket: recv() would return 0. Used when a read made
    /// no progress on a readable socket (a partial line can hide the end of the stream).
    func peerClosed() -> Bool {
        guard isOpen, let socket else { return true }
        var byte: UInt8 = 0
        do {
            // nil: nothing to read yet, the peer is still there.
            guard let n = try withUnsafeMutableBytes(of: &byte, { try socket.receiveNow(into: $0, peek: true) }) else { return false }
            return n == 0
        } catch {
            return true
        }
    }

    func close() {
        guard isOpen else { return }
        socket?.close()
        socket = nil
        start = 0
        filled = 0
    }
}
