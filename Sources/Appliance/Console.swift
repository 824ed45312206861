import Posix

/// The box's own lines, written with write(2) at once: no FILE* buffering (under systemd stdout
/// is a pipe, and a line print() kept in its buffer would be lost to a kill), and no shared
/// FILE* (Swift 6 forbids touching `stderr`).
///
/// `run` installs `loop` sinks: from then on its lines never block (`ConsoleSink`). Every other
/// command writes with blocking write(2): a client's output must not lose lines.
enum Console {
    /// Standard output and error while `run`'s loop owns them.
    nonisolated(unsafe) static var loop: (out: ConsoleSink, error: ConsoleSink)?

    static func error(_ line: String) {
        if let loop { return loop.error.line(line) }
        write(line, to: .standardError)
    }

    /// A line about the alarm itself that can't wait to be noticed ("Won't ring: nothing can
    /// sound the alarm"), on standard error in the alarm's colour: at the journal's error
    /// priority when standard error is journald's stream (`<3>`, which journalctl shows in red;
    /// systemd sets `JOURNAL_STREAM` to that stream's device and inode), red on a terminal,
    /// plain otherwise.
    static func alarm(_ line: String) {
        let fd = FileDescriptor.standardError
        if let stream = Process.environment("JOURNAL_STREAM"), stream == fd.streamIdentity {
            error("<3>" + line)
        } else if fd.isTerminal {
            error("\u{1B}[1;91m\(line)\u{1B}[0m")
        } else {
            error(line)
        }
    }

    /// "Sent, waiting for the box" must be on the terminal, or in a pipe, before the wait begins.
    static func out(_ line: String) {
        if let loop { return loop.out.line(line) }
        write(line, to: .standardOutput)
    }

    private static func write(_ line: String, to fd: FileDescriptor) {
        var text = line
        if !text.hasSuffix("\n") { text += "\n" }
        try? fd.writeAll(text.utf8)
    }
}
