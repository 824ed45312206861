import Posix

/// Whole-file writes for the benchmark's reports and plots, through the room (`Files`): the
/// file is replaced whole, and a failure is a `SystemError` naming the path and errno's words.
enum BenchFile {
    static func write(_ path: String, _ text: String) throws {
        try Files.writeAtomically(text.utf8, to: path, durable: false)
    }

    static func makeDirectory(_ path: String) {
        try? Files.makeDirectories(path, mode: 0o755)
    }
}
