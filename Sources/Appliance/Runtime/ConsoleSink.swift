import Drivers
import Posix
import WatchCore

/// `run`'s standard output or error, which must never stop the loop: under systemd it is
/// journald's stream socket, and a pipe nobody reads (or a terminal held by Ctrl-S) would
/// otherwise freeze the box on a blocking write(2).
///
/// Lines go into a bounded buffer and out with writes that cannot wait (`send` with
/// MSG_DONTWAIT on a socket; on a pipe or a terminal a descriptor of its own opened
/// non-blocking through /proc/self/fd, so the terminal the shell shares is left as it was; a
/// regular file is written plainly). What does not fit is dropped and counted, and the count is
/// said as soon as there is room again. The loop polls the descriptor for POLLOUT while
/// anything waits.
final class ConsoleSink: Pollable {
    enum Kind { case socket, nonBlocking, file }

    let descriptor: FileDescriptor
    var fd: Int32 { descriptor.rawValue }
    let kind: Kind
    let capacity: Int
    private var buffer: [UInt8] = []
    private var sent = 0
    private(set) var dropped = 0
    private(set) var droppedTotal = 0

    /// `capacity` bytes wait at most (64 KB: a few hundred lines, hours of a quiet box).
    /// `target` is borrowed: a descriptor of its own is opened (and closed) where needed.
    convenience init(fd: Int32, capacity: Int = 64 * 1024) {
        self.init(FileDescriptor(borrowing: fd), capacity: capacity)
    }

    init(_ target: FileDescriptor, capacity: Int = 64 * 1024) {
        self.capacity = capacity
        switch try? target.kind() {
        case .socket:
            kind = .socket
            descriptor = target
        case .regular:
            kind = .file
            descriptor = target
        default:
            kind = .nonBlocking
            if let again = try? FileDescriptor.open("/proc/self/fd/\(target.rawValue)", [.writeOnly, .nonBlocking, .noControllingTerminal, .append]) {
                descriptor = again
            } else {
                // No /proc: this descriptor itself, non-blocking (it is ours alone under systemd).
                try? target.setNonBlocking()
                descriptor = target
            }
        }
    }

    /// Queues one line (a newline is added) and writes what it can now.
    func line(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.last != 0x0A { bytes.append(0x0A) }
        if pending + bytes.count > capacity {
            dropped += 1
            droppedTotal += 1
            return
        }
        buffer += bytes
        flush()
    }

    /// Bytes waiting to be written.
    var pending: Int { buffer.count - sent }

    /// Writes as much as the descriptor takes without waiting.
    func flush() {
        while pending > 0 {
            do {
                let n = try buffer.withUnsafeBytes { raw -> Int in
                    let rest = UnsafeRawBufferPointer(rebasing: raw[sent...])
                    switch kind {
                    case .socket: return try descriptor.send(rest, dontWait: true)
                    case .nonBlocking, .file: return try descriptor.write(rest)
                    }
                }
                if n > 0 {
                    sent += n
                    continue
                }
            } catch let e as SystemError where e.wouldBlock {
                break
            } catch {}
            // A closed reader (EPIPE) or a broken descriptor: nothing will ever read this.
            let lost = buffer[sent...].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            dropped += lost
            droppedTotal += lost
            buffer.removeAll()
            sent = 0
            return
        }
        if sent == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= capacity)
            sent = 0
        } else if sent > capacity / 2 {
            buffer.removeFirst(sent)
            sent = 0
        }
        if dropped > 0, pending == 0 {
            let n = dropped
            dropped = 0
            line("Log: \(n) line\(n == 1 ? "" : "s") not written, nothing was reading the box's output")
        }
    }

    func pollRequests() -> [PollDescriptor] {
        pending > 0 && kind != .file ? [PollDescriptor(fd: fd, wanted: PollEvents.writable)] : []
    }

    func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        if !ready.isEmpty || kind == .file { flush() }
        return []
    }

    func nextDeadline() -> Instant? { nil }
}
