#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which one, and errno. The surfaces' one place where "-1 and errno"
/// becomes a typed error.
struct PosixError: Error, CustomStringConvertible, Equatable {
    var call: String
    var code: Int32

    var description: String { "\(call): \(String(cString: strerror(code)))" }
    var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }
}

/// EINTR policy: retry read, write, send, recv, accept, poll, connect-wait and flock; never
/// close (Linux frees the descriptor even when close reports EINTR, so a retry could close a
/// descriptor another part of the box just opened).
enum Posix {
    @discardableResult
    static func check<T: BinaryInteger>(_ call: String, retryEINTR: Bool = true, _ body: () -> T) throws -> T {
        while true {
            let r = body()
            if r != -1 { return r }
            let e = errno
            if e == EINTR && retryEINTR { continue }
            throw PosixError(call: call, code: e)
        }
    }

    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Writes all of `bytes` to a blocking descriptor.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], call: String = "write") throws {
        var off = 0
        while off < bytes.count {
            let n = try check(call) {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + off, bytes.count - off) }
            }
            off += n
        }
    }

    /// Reads a whole small file; nil if it does not exist.
    static func readFile(_ path: String, limit: Int = 1 << 20) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw PosixError(call: "open \(path)", code: errno)
        }
        defer { close(fd) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while out.count < limit {
            let n = try check("read \(path)") { buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) } }
            if n == 0 { break }
            out += buf[0..<n]
        }
        return out
    }

    static func readText(_ path: String) -> String? {
        (try? readFile(path)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Makes a directory (and its parents) if missing, with `mode` for the ones it creates.
    static func makeDirectories(_ path: String, mode: mode_t) throws {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, mode) != 0 && errno != EEXIST {
                throw PosixError(call: "mkdir \(built)", code: errno)
            }
        }
    }
}
