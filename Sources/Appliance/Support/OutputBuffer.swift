#if canImport(Glibc)
import Glibc
#endif

/// Buffers standard output and writes it with write(2) in large chunks: replay prints thousands
/// of lines, and print() per line costs a syscall each when piped.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    mutating func line(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        bytes.append(0x0A)
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue } else { break } }
            off += n
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
