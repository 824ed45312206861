import Glibc

/// An open descriptor that closes exactly once: on `close()` or, if nobody did, when the last
/// reference goes. Every call retries EINTR (see `Syscall`) and throws `SystemError`. The
/// standard streams are borrowed, never closed. `rawValue` is for poll(2) and C libraries.
public final class FileDescriptor: @unchecked Sendable {
    public private(set) var rawValue: Int32
    private let owned: Bool

    /// Takes ownership of `rawValue` (closed by this object).
    public init(adopting rawValue: Int32) {
        self.rawValue = rawValue
        owned = true
    }

    /// Uses `rawValue` without owning it: `close()` and the end of this object leave it open.
    public init(borrowing rawValue: Int32) {
        self.rawValue = rawValue
        owned = false
    }

    deinit { close() }

    public static let standardInput = FileDescriptor(borrowing: STDIN_FILENO)
    public static let standardOutput = FileDescriptor(borrowing: STDOUT_FILENO)
    public static let standardError = FileDescriptor(borrowing: STDERR_FILENO)

    public var isOpen: Bool { rawValue >= 0 }

    /// Closes once; a second call does nothing. Never retried, never reported.
    public func close() {
        guard owned, rawValue >= 0 else { return }
        _ = Glibc.close(rawValue)
        rawValue = -1
    }

    public struct Options: OptionSet, Sendable {
        public var rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let readOnly = Options([])
        public static let writeOnly = Options(rawValue: O_WRONLY)
        public static let readWrite = Options(rawValue: O_RDWR)
        public static let create = Options(rawValue: O_CREAT)
        public static let exclusive = Options(rawValue: O_EXCL)
        public static let truncate = Options(rawValue: O_TRUNC)
        public static let append = Options(rawValue: O_APPEND)
        public static let directory = Options(rawValue: O_DIRECTORY)
        public static let noControllingTerminal = Options(rawValue: O_NOCTTY)
        public static let nonBlocking = Options(rawValue: O_NONBLOCK)
    }

    /// open(2), always close-on-exec.
    public static func open(_ path: String, _ options: Options = .readOnly, mode: UInt32 = 0o644) throws -> FileDescriptor {
        let fd = try Syscall.check("open \(path)") { Glibc.open(path, options.rawValue | O_CLOEXEC, mode_t(mode)) }
        return FileDescriptor(adopting: fd)
    }

    /// One read(2) into `buffer`; 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, call: @autoclosure () -> String = "read") throws -> Int {
        try Syscall.check(call()) { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// One read(2) on a non-blocking descriptor: nil when nothing is there (EAGAIN), without
    /// the cost of a thrown error on the loop's every turn.
    public func readNow(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        try Syscall.attempt("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads into `value`'s bytes (a signalfd record, a timerfd count); the bytes read.
    public func read<T>(into value: inout T) throws -> Int {
        try withUnsafeMutableBytes(of: &value) { try read(into: $0) }
    }

    /// One write(2); the bytes written.
    public func write(_ bytes: UnsafeRawBufferPointer, call: @autoclosure () -> String = "write") throws -> Int {
        try Syscall.check(call()) { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes all of `bytes` (short writes continue). For blocking descriptors.
    public func writeAll<C: Collection>(_ bytes: C, call: @autoclosure () -> String = "write") throws where C.Element == UInt8 {
        let all = Array(bytes)
        var done = 0
        try all.withUnsafeBytes { raw in
            while done < raw.count {
                done += try write(UnsafeRawBufferPointer(rebasing: raw[done...]), call: call())
            }
        }
    }

    /// send(2) without SIGPIPE: a peer that went away must not kill the box.
    public func send(_ bytes: UnsafeRawBufferPointer, dontWait: Bool = false) throws -> Int {
        try Syscall.check("send") {
            Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | (dontWait ? Int32(MSG_DONTWAIT) : 0))
        }
    }

    public func send<C: Collection>(_ bytes: C, dontWait: Bool = false) throws -> Int where C.Element == UInt8 {
        try Array(bytes).withUnsafeBytes { try send($0, dontWait: dontWait) }
    }

    /// recv(2); 0 when the peer closed.
    public func receive(into buffer: UnsafeMutableRawBufferPointer, dontWait: Bool = false, peek: Bool = false) throws -> Int {
        let flags = (dontWait ? Int32(MSG_DONTWAIT) : 0) | (peek ? Int32(MSG_PEEK) : 0)
        return try Syscall.check("recv") { Glibc.recv(rawValue, buffer.baseAddress, buffer.count, flags) }
    }

    /// fdatasync: the data and the size are durable when this returns.
    public func syncData(call: @autoclosure () -> String = "fdatasync") throws { try Syscall.check(call()) { fdatasync(rawValue) } }

    /// fsync: data and metadata (a directory's entries).
    public func sync(call: @autoclosure () -> String = "fsync") throws { try Syscall.check(call()) { fsync(rawValue) } }

    public func truncate(to size: Int, call: @autoclosure () -> String = "ftruncate") throws {
        try Syscall.check(call()) { ftruncate(rawValue, off_t(size)) }
    }

    public func setNonBlocking(_ on: Bool = true) throws {
        let flags = try Syscall.check("fcntl") { fcntl(rawValue, F_GETFL) }
        try Syscall.check("fcntl") { fcntl(rawValue, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) }
    }

    public var isNonBlocking: Bool { fcntl(rawValue, F_GETFL) & O_NONBLOCK != 0 }

    public func setCloseOnExec() throws { try Syscall.check("fcntl") { fcntl(rawValue, F_SETFD, FD_CLOEXEC) } }

    public enum Lock { case shared, exclusive }

    /// flock(2), never waiting: throws `SystemError` with EWOULDBLOCK when someone holds it.
    public func lock(_ kind: Lock) throws {
        try Syscall.check("flock") { flock(rawValue, (kind == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) }
    }

    public func changeMode(_ mode: UInt32) { _ = fchmod(rawValue, mode_t(mode)) }

    public enum Kind: Sendable { case regular, directory, socket, pipe, characterDevice, blockDevice, other }

    /// What fstat says this descriptor is.
    public func kind() throws -> Kind {
        var st = stat()
        try Syscall.check("fstat") { fstat(rawValue, &st) }
        return Kind(mode: st.st_mode)
    }

    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// "device:inode" as systemd writes `JOURNAL_STREAM` (decimal), for telling whether this
    /// descriptor is journald's stream; nil if fstat fails.
    public var streamIdentity: String? {
        var st = stat()
        guard fstat(rawValue, &st) == 0 else { return nil }
        return "\(st.st_dev):\(st.st_ino)"
    }

    /// ioctl(2) with a pointer argument (SPI transfers, terminal size).
    public func control<T>(_ request: UInt, _ argument: inout T, call: @autoclosure () -> String = "ioctl") throws {
        _ = try withUnsafeMutablePointer(to: &argument) { pointer in
            try Syscall.check(call()) { ioctl(rawValue, request, pointer) }
        }
    }

    /// A connected pair of non-blocking, close-on-exec pipe ends: (read, write).
    public static func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        try Syscall.check("pipe") { Glibc.pipe(&fds) }
        let ends = (read: FileDescriptor(adopting: fds[0]), write: FileDescriptor(adopting: fds[1]))
        for end in [ends.read, ends.write] {
            try end.setNonBlocking()
            try end.setCloseOnExec()
        }
        return ends
    }
}

extension FileDescriptor.Kind {
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFSOCK: self = .socket
        case S_IFIFO: self = .pipe
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .other
        }
    }
}
