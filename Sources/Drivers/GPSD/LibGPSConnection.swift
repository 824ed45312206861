import CGPS
import Posix

/// The one file that imports libgps. One streaming connection to gpsd: open, read one message at
/// a time without blocking, close. Builds against gpsd 3.22 (API 11) and 3.25 (API 14): it
/// touches only names both share, and converts `gps_fd` (int in 3.22, intptr_t in 3.25) and the
/// watch flags (see `aa_gps_watch_json`) in ways that compile under both.
final class LibGPSConnection {
    enum OpenError: Error, Equatable {
        /// gps_open failed: its negative NL_* code (-6 is "can't connect") or errno.
        case open(code: Int32, message: String)
        /// The WATCH request could not be sent.
        case stream(errno: Int32)
        case nonBlocking(errno: Int32)
    }

    enum ReadResult {
        case message(GPSDMessage)
        /// A line that is not a JSON object gpsd would send.
        case garbage
        /// No complete line buffered: wait for the next poll.
        case none
        /// gpsd closed the connection or the socket failed.
        case closed(errno: Int32)
    }

    /// libgps keeps pointers into this structure (24 KB in 3.22), so it lives on the heap, once,
    /// for the connection's life.
    private let data: UnsafeMutablePointer<gps_data_t>
    private(set) var isOpen = false
    /// libgps's socket, borrowed: gps_close closes it.
    private var socket: FileDescriptor?

    init() {
        data = .allocate(capacity: 1)
        UnsafeMutableRawPointer(data).initializeMemory(
            as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.stride)
    }

    deinit {
        close()
        data.deallocate()
    }

    /// The API major version of the headers this was built against.
    static var apiMajor: Int { Int(aa_gps_api_major()) }

    /// The socket to poll for input, while open.
    var fd: Int32? { isOpen ? Int32(truncatingIfNeeded: data.pointee.gps_fd) : nil }

    /// Connects and asks for JSON reports. `host` should be a numeric address the caller has just
    /// seen accept a connection: gps_open's own connect() blocks.
    func open(host: String, port: UInt16) throws(OpenError) {
        close()
        Errno.current = Errno(rawValue: 0)
        if gps_open(host, String(port), data) != 0 {
            let code = Errno.current.rawValue
            let message = code < 0 ? String(cString: gps_errstr(code)) : Errno(rawValue: code).description
            throw .open(code: code, message: message)
        }
        isOpen = true
        if gps_stream(data, aa_gps_watch_json(), nil) != 0 {
            let e = Errno.current.rawValue
            close()
            throw .stream(errno: e)
        }
        // From here on nothing may wait on the socket: `read` uses recv with MSG_DONTWAIT too.
        socket = FileDescriptor(borrowing: Int32(truncatingIfNeeded: data.pointee.gps_fd))
        do {
            try socket?.setNonBlocking()
        } catch {
            close()
            throw .nonBlocking(errno: (error as? SystemError)?.errno.rawValue ?? 0)
        }
    }

    /// Reads at most one message: the next whole line in the buffer, or, when none is there, one
    /// non-blocking recv() and then the next whole line. gpsd's reports are read here, not by
    /// gps_read: a TPV (ten a second at 10 Hz) is parsed once, by `GPSDFix.tpv`, straight from
    /// the bytes; the rare other classes go through `GPSDLine`. libgps opens, streams and closes.
    func read() -> ReadResult {
        guard isOpen, let socket else { return .closed(errno: Errno.badDescriptor.rawValue) }
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
                return .closed(errno: (error as? SystemError)?.errno.rawValue ?? 0)
            }
            guard let got = received else { return .none }
            if got == 0 { return .closed(errno: 0) }
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
        isOpen = false
        socket = nil
        start = 0
        filled = 0
        _ = gps_close(data)
    }
}
