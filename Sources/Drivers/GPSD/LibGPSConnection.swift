import CGPS
import Glibc

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
        errno = 0
        if gps_open(host, String(port), data) != 0 {
            let code = errno
            let message = code < 0 ? String(cString: gps_errstr(code)) : String(cString: strerror(code))
            throw .open(code: code, message: message)
        }
        isOpen = true
        if gps_stream(data, aa_gps_watch_json(), nil) != 0 {
            let e = errno
            close()
            throw .stream(errno: e)
        }
        // From here on nothing may wait on the socket: `read` uses recv with MSG_DONTWAIT too.
        let fd = Int32(truncatingIfNeeded: data.pointee.gps_fd)
        let flags = fcntl(fd, F_GETFL)
        if flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 {
            let e = errno
            close()
            throw .nonBlocking(errno: e)
        }
    }

    /// Reads at most one message: the next whole line in the buffer, or, when none is there, one
    /// non-blocking recv() and then the next whole line. gpsd's reports are read here, not by
    /// gps_read: a TPV (ten a second at 10 Hz) is parsed once, by `GPSDFix.tpv`, straight from
    /// the bytes; the rare other classes go through `GPSDLine`. libgps opens, streams and closes.
    func read() -> ReadResult {
        guard let fd else { return .closed(errno: EBADF) }
        if let r = nextMessage() { return r }
        while true {
            if filled == buffer.count {
                // A line longer than anything gpsd sends: not gpsd. Drop it whole.
                filled = 0
                start = 0
                return .garbage
            }
            let n = buffer.withUnsafeMutableBytes { raw in
                recv(fd, raw.baseAddress! + filled, raw.count - filled, Int32(MSG_DONTWAIT))
            }
            if n == 0 { return .closed(errno: 0) }
            if n < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .none
                case let e: return .closed(errno: e)
                }
            }
            filled += n
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
        let nl: Int? = buffer.withUnsafeBufferPointer { b in
            memchr(b.baseAddress! + start, 0x0A, filled - start).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - b.baseAddress! }
        }
        guard let nl else {
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + start, filled - start)
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
        guard let fd else { return true }
        var byte: UInt8 = 0
        while true {
            let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if n == 0 { return true }
            if n > 0 { return false }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return false
            default: return true
            }
        }
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        start = 0
        filled = 0
        _ = gps_close(data)
    }
}
