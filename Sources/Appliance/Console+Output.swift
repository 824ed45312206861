#if canImport(Glibc)
import Glibc
#endif

extension Console {
    /// Writes a line to standard output at once (no FILE* buffering): "Sent, waiting for the
    /// box" must be on the terminal, or in a pipe, before the wait begins.
    static func out(_ line: String) {
        var text = line
        if !text.hasSuffix("\n") { text += "\n" }
        try? Posix.writeAll(1, Array(text.utf8))
    }
}
