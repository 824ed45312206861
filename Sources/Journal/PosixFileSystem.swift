import Glibc

/// The real file system, through Glibc. Every "-1 and errno" becomes a `FileSystemError` in
/// `check`, whose EINTR policy is the one rule for this file: a call interrupted by a signal
/// before it did anything is retried (open, read, write, fdatasync, fsync, ftruncate); close is
/// never retried, because on Linux the descriptor is gone even when close reports EINTR.
public final class PosixFileSystem: JournalFileSystem {
    public init() {}

    public func list(_ directory: String) throws -> [String] {
        guard let dir = opendir(directory) else { throw FileSystemError(.list, directory, Errno(rawValue: errno)) }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { throw FileSystemError(.list, directory, Errno(rawValue: errno)) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public func makeDirectory(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw FileSystemError(.makeDirectory, prefix, Errno(rawValue: errno))
            }
            prefix += "/"
        }
    }

    public func read(_ path: String) throws -> [UInt8] { try read(path, limit: Int.max) }

    public func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = try check(.read, path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { _ = Glibc.close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while out.count < limit {
            let want = min(chunk.count, limit - out.count)
            let n = try check(.read, path) { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) } }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<Int(n)])
        }
        return out
    }

    public func size(_ path: String) throws -> Int {
        var st = stat()
        _ = try check(.size, path) { stat(path, &st) }
        return Int(st.st_size)
    }

    public func create(_ path: String) throws -> any JournalFile {
        let fd = try check(.create, path) { open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644) }
        return PosixFile(fd: fd, path: path)
    }

    public func openForAppending(_ path: String) throws -> any JournalFile {
        let fd = try check(.open, path) { open(path, O_WRONLY | O_APPEND | O_CLOEXEC) }
        return PosixFile(fd: fd, path: path)
    }

    public func rename(_ from: String, to: String) throws {
        _ = try check(.rename, from) { Glibc.rename(from, to) }
    }

    public func unlink(_ path: String) throws {
        _ = try check(.unlink, path) { Glibc.unlink(path) }
    }

    public func syncDirectory(_ path: String) throws {
        let fd = try check(.syncDirectory, path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { _ = Glibc.close(fd) }
        _ = try check(.syncDirectory, path) { fsync(fd) }
    }

    public func freeSpace(_ path: String) throws -> Int64 {
        var st = statvfs()
        _ = try check(.freeSpace, path) { statvfs(path, &st) }
        return Int64(st.f_bavail) * Int64(st.f_frsize)
    }
}

/// A descriptor opened for appending.
final class PosixFile: JournalFile {
    private var fd: Int32
    let path: String

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close() }

    func append(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = try check(.append, path) {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            }
            done += Int(n)
        }
    }

    func syncData() throws { _ = try check(.sync, path) { fdatasync(fd) } }

    func truncate(to size: Int) throws { _ = try check(.truncate, path) { ftruncate(fd, off_t(size)) } }

    func close() {
        guard fd >= 0 else { return }
        _ = Glibc.close(fd)
        fd = -1
    }
}

/// The one place a C "-1 and errno" becomes a typed error; retries EINTR (see PosixFileSystem).
@discardableResult
func check<T: BinaryInteger>(_ operation: FileSystemError.Operation, _ path: String, _ call: () -> T) throws -> T {
    while true {
        let result = call()
        if result >= 0 { return result }
        let e = errno
        if e == EINTR { continue }
        throw FileSystemError(operation, path, Errno(rawValue: e))
    }
}
