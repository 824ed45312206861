import Posix

/// Buffers standard output and writes it in large chunks: replay prints thousands
/// of lines, and print() per line costs a syscall each when piped.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    mutating func line(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        bytes.append(0x0A)
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        try? FileDescriptor.standardOutput.writeAll(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
