#if canImport(Glibc)
import Glibc
#endif

/// Whole-file writes (reads are Recordings' `FileBytes`); EINTR is retried, every other failure is a
/// typed error carrying the path and errno's words.
enum BenchFile {
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    static func write(_ path: String, _ text: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(path)
            }
            done += n
        }
    }

    static func makeDirectory(_ path: String) {
        _ = mkdir(path, 0o755)
    }

    private static func failure(_ path: String) -> Failure {
        Failure(path: path, reason: String(cString: strerror(errno)))
    }
}
