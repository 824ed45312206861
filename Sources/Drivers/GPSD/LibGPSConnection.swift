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
    /// gps_read copies the raw JSON line here: the only way to see a DEVICE deactivation.
    private var line: [CChar]
    private(set) var isOpen = false

    init() {
        data = .allocate(capacity: 1)
        UnsafeMutableRawPointer(data).initializeMemory(
            as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.stride)
        line = [CChar](repeating: 0, count: 16 * 1024)
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
        // From here on gps_read must never wait: it calls recv() when no whole line is buffered.
        let fd = Int32(truncatingIfNeeded: data.pointee.gps_fd)
        let flags = fcntl(fd, F_GETFL)
        if flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 {
            let e = errno
            close()
            throw .nonBlocking(errno: e)
        }
    }

    /// Reads at most one message. gps_read does not clear `set` from the last report, so it is
    /// cleared first, or an old fix would be seen again.
    func read() -> ReadResult {
        guard isOpen else { return .closed(errno: EBADF) }
        data.pointee.set = 0
        line[0] = 0
        errno = 0
        let n = gps_read(data, &line, Int32(line.count))
        let e = errno
        let text = lineText()
        if text.isEmpty {
            // A dead gpsd shows as -1 with errno 0 (recv returned 0).
            return n < 0 ? .closed(errno: e) : .none
        }
        // A negative status with a line in hand means libgps could not unpack it; the connection
        // is fine. The class still tells what it was, but a TPV's numbers can't be trusted.
        let raw = GPSDLine(text)
        if n < 0, raw.className == "TPV" { return .garbage }
        guard let message = GPSDMessage.parse(raw, tpv: fix) else { return .garbage }
        return .message(message)
    }

    /// True when the peer has closed the socket: recv() would return 0. Used when gps_read made
    /// no progress on a readable socket, since libgps cannot report EOF while it holds part of a
    /// line.
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

    private func lineText() -> String {
        line.withUnsafeBufferPointer { buf in
            let bytes = UnsafeRawBufferPointer(buf)
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        _ = gps_close(data)
    }

    /// The fix libgps decoded from the last TPV, unset fields as nil.
    private func fix() -> GPSDFix {
        let set = data.pointee.set
        let f = data.pointee.fix
        func value(_ x: Double, _ flag: UInt64) -> Double? { set & flag != 0 ? x : nil }
        let hasTime = set & TIME_SET != 0 && (f.time.tv_sec != 0 || f.time.tv_nsec != 0)
        let device = withUnsafeBytes(of: data.pointee.dev.path) { raw -> String? in
            let s = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            return s.isEmpty ? nil : s
        }
        return GPSDFix(
            mode: set & MODE_SET != 0 ? Int(f.mode) : 0,
            latitude: value(f.latitude, LATLON_SET),
            longitude: value(f.longitude, LATLON_SET),
            // libgps resets every TPV number to NaN before unpacking a TPV, and it sets HERR_SET
            // only for epx/epy (measured: a TPV with "eph" alone leaves it clear), so these go
            // by their values; GPSDFix turns NaN into nil.
            eph: f.eph,
            epx: f.epx,
            epy: f.epy,
            speed: f.speed,
            track: f.track,
            time: hasTime ? Double(f.time.tv_sec) + Double(f.time.tv_nsec) / 1e9 : nil,
            device: device)
    }
}
