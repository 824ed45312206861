#if canImport(Glibc)
import Glibc
#endif

/// Writes to standard error with write(2): no shared FILE* (Swift 6 forbids touching `stderr`),
/// no buffering, so a message is out before a crash or an exit.
enum Console {
    static func error(_ line: String) {
        var text = line
        if !text.hasSuffix("\n") { text += "\n" }
        text.withCString { p in
            var off = 0
            let n = strlen(p)
            while off < n {
                let w = write(2, p + off, n - off)
                if w < 0 { if errno == EINTR { continue } else { return } }
                off += w
            }
        }
    }
}
