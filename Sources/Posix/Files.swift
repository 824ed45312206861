import CLinux
import Glibc

/// Path operations on the real file system. Each throws `SystemError` naming the call and path.
public enum Files {
    /// Reads a whole file, refusing one larger than `limit` (the error says so). The one way the
    /// box, its surfaces and the benchmarks read a file whole.
    /// Its errors name the path alone ("/etc/anchor-alert.toml: No such file or directory").
    public static func read(_ path: String, limit: Int = 512 << 20) throws -> [UInt8] {
        do {
            return try readWhole(path, limit: limit)
        } catch let e as SystemError {
            throw SystemError(call: path, errno: e.errno, detail: e.detail)
        }
    }

    private static func readWhole(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = try FileDescriptor.open(path)
        defer { fd.close() }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let want = min(chunk.count, limit + 1 - out.count)
            let n = try chunk.withUnsafeMutableBytes { try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]), call: "read \(path)") }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw SystemError(call: path, errno: .messageTooLong, detail: "larger than \(limit >> 20) MiB") }
        }
    }

    /// At most the first `limit` bytes (recovery never reads a damaged file unbounded).
    public static func readPrefix(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = try FileDescriptor.open(path)
        defer { fd.close() }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while out.count < limit {
            let want = min(chunk.count, limit - out.count)
            let n = try chunk.withUnsafeMutableBytes { try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]), call: "read \(path)") }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }

    /// The whole file, or nil when it does not exist.
    public static func readIfPresent(_ path: String, limit: Int = 1 << 20) throws -> [UInt8]? {
        do {
            return try read(path, limit: limit)
        } catch let e as SystemError where e.errno == .notFound {
            return nil
        }
    }

    /// A small text file's contents, or nil when it is missing or unreadable.
    public static func readText(_ path: String, limit: Int = 1 << 20) -> String? {
        (try? read(path, limit: limit)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Replaces `path` atomically: `path.tmp` written whole, then renamed over `path`, so a
    /// reader sees the old file or the new one, never a part. `durable` adds fdatasync before
    /// the rename and fsync of the directory after it (for a card; tmpfs needs neither).
    public static func writeAtomically<C: Collection>(_ bytes: C, to path: String, mode: UInt32 = 0o644, durable: Bool) throws where C.Element == UInt8 {
        try writeAtomically(bytes, to: path, temporary: path + ".tmp", mode: mode, durable: durable)
    }

    /// The same with the temp file's path given (`path` + ".tmp"), for a writer that made it once.
    public static func writeAtomically<C: Collection>(_ bytes: C, to path: String, temporary tmp: String, mode: UInt32 = 0o644,
                                                      durable: Bool) throws where C.Element == UInt8 {
        let fd = try FileDescriptor.open(tmp, [.writeOnly, .create, .truncate], mode: mode)
        do {
            fd.changeMode(mode)
            try fd.writeAll(bytes, call: "write \(tmp)")
            if durable { try fd.syncData(call: "fdatasync \(tmp)") }
            fd.close()
        } catch {
            fd.close()
            _ = Glibc.unlink(tmp)
            throw error
        }
        try rename(tmp, to: path)
        if durable { try syncDirectory(directory(of: path)) }
    }

    /// The directory part of `path` ("." for a bare name).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func rename(_ from: String, to: String) throws {
        try Syscall.check("rename \(from)") { Glibc.rename(from, to) }
    }

    public static func unlink(_ path: String) throws {
        try Syscall.check("unlink \(path)") { Glibc.unlink(path) }
    }

    /// fsync of a directory: makes creations, renames and unlinks in it durable.
    public static func syncDirectory(_ path: String) throws {
        let fd = try FileDescriptor.open(path, .directory)
        defer { fd.close() }
        try fd.sync(call: "fsync \(path)")
    }

    /// Makes `path` and its missing parents with `mode`; an existing directory is fine.
    public static func makeDirectories(_ path: String, mode: UInt32 = 0o755) throws {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, mode_t(mode)) != 0 && Glibc.errno != EEXIST {
                throw SystemError(call: "mkdir \(built)", errno: .current)
            }
        }
    }

    /// Names in `directory`, without "." and "..", in no particular order.
    public static func list(_ directory: String) throws -> [String] {
        guard let dir = opendir(directory) else { throw SystemError(call: "opendir \(directory)", errno: .current) }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            Glibc.errno = 0
            guard let entry = readdir(dir) else {
                if Glibc.errno != 0 { throw SystemError(call: "readdir \(directory)", errno: .current) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public struct Status: Sendable {
        public var size: Int
        public var kind: FileDescriptor.Kind
        /// Seconds since 1970 of the last change.
        public var modified: Double
        /// The permission bits (`st_mode & 0o7777`).
        public var permissions: UInt32
    }

    public static func status(_ path: String) throws -> Status {
        var st = stat()
        try Syscall.check("stat \(path)") { stat(path, &st) }
        return Status(size: Int(st.st_size), kind: FileDescriptor.Kind(mode: st.st_mode),
                      modified: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9,
                      permissions: UInt32(st.st_mode) & 0o7777)
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    public static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// Bytes an unprivileged writer may still use on the file system holding `path`.
    public static func freeSpace(_ path: String) throws -> Int64 {
        var st = statvfs()
        try Syscall.check("statvfs \(path)") { statvfs(path, &st) }
        return Int64(st.f_bavail) * Int64(st.f_frsize)
    }

    /// The kind of file system that holds `path`, from `statfs`'s magic number: what a power cut
    /// does to a synced file depends on it (Docs/proofs.md, the file systems the cuts ran on).
    public enum FileSystemKind: Equatable, Sendable {
        /// ext2, ext3 and ext4 share one magic number.
        case ext, xfs, f2fs, btrfs
        case fat, exfat
        /// Held in memory: gone at a power cut, synced or not.
        case tmpfs, ramfs
        /// An overlay: where its changes go (a card or memory) is the overlay's business.
        case overlay
        case other(UInt64)

        public var name: String {
            switch self {
            case .ext: "ext4"
            case .xfs: "XFS"
            case .f2fs: "F2FS"
            case .btrfs: "Btrfs"
            case .fat: "FAT"
            case .exfat: "exFAT"
            case .tmpfs: "tmpfs"
            case .ramfs: "ramfs"
            case .overlay: "overlay"
            case .other(let magic): "0x" + String(magic, radix: 16)
            }
        }

        init(magic: UInt64) {
            switch magic {
            case 0xEF53: self = .ext
            case 0x5846_5342: self = .xfs
            case 0xF2F5_2010: self = .f2fs
            case 0x9123_683E: self = .btrfs
            case 0x4D44: self = .fat
            case 0x2011_BAB0: self = .exfat
            case 0x0102_1994: self = .tmpfs
            case 0x8584_58F6: self = .ramfs
            case 0x794C_7630: self = .overlay
            default: self = .other(magic)
            }
        }
    }

    /// The kind of file system holding `path` (which must exist).
    public static func fileSystemKind(_ path: String) throws -> FileSystemKind {
        var st = statfs()
        try Syscall.check("statfs \(path)") { statfs(path, &st) }
        return FileSystemKind(magic: UInt64(UInt(bitPattern: Int(st.f_type))))
    }

    public struct Space: Sendable {
        public var total: Int64
        public var free: Int64
    }

    /// Size and space left of the file system holding `path`.
    public static func space(_ path: String) throws -> Space {
        var st = statvfs()
        try Syscall.check("statvfs \(path)") { statvfs(path, &st) }
        return Space(total: Int64(st.f_blocks) * Int64(st.f_frsize), free: Int64(st.f_bavail) * Int64(st.f_frsize))
    }

    public static func changeMode(_ path: String, _ mode: UInt32) throws {
        try Syscall.check("chmod \(path)") { chmod(path, mode_t(mode)) }
    }

    /// A new directory `prefix` + six random characters, made private (mode 0700).
    public static func makeTemporaryDirectory(_ prefix: String) throws -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { throw SystemError(call: "mkdtemp \(prefix)", errno: .current) }
        return String(cString: made)
    }

    public static func removeDirectory(_ path: String) throws {
        try Syscall.check("rmdir \(path)") { rmdir(path) }
    }
}
