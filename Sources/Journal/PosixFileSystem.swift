import Posix

/// The real file system, through the room (`Posix`): its one EINTR policy, its descriptors
/// that close once. Each `SystemError` becomes a `FileSystemError` naming the journal's
/// operation and path.
public final class PosixFileSystem: JournalFileSystem {
    public init() {}

    public func list(_ directory: String) throws -> [String] {
        try translating(.list, directory) { try Files.list(directory) }
    }

    public func makeDirectory(_ path: String) throws {
        try translating(.makeDirectory, path) { try Files.makeDirectories(path, mode: 0o755) }
    }

    public func read(_ path: String) throws -> [UInt8] { try read(path, limit: Int.max) }

    public func read(_ path: String, limit: Int) throws -> [UInt8] {
        try translating(.read, path) { try Files.readPrefix(path, limit: limit) }
    }

    public func size(_ path: String) throws -> Int {
        try translating(.size, path) { try Files.status(path).size }
    }

    public func create(_ path: String) throws -> any JournalFile {
        try translating(.create, path) { PosixFile(try FileDescriptor.open(path, [.writeOnly, .create, .exclusive, .append]), path: path) }
    }

    public func openForAppending(_ path: String) throws -> any JournalFile {
        try translating(.open, path) { PosixFile(try FileDescriptor.open(path, [.writeOnly, .append]), path: path) }
    }

    public func rename(_ from: String, to: String) throws {
        try translating(.rename, from) { try Files.rename(from, to: to) }
    }

    public func unlink(_ path: String) throws {
        try translating(.unlink, path) { try Files.unlink(path) }
    }

    public func syncDirectory(_ path: String) throws {
        try translating(.syncDirectory, path) { try Files.syncDirectory(path) }
    }

    public func freeSpace(_ path: String) throws -> Int64 {
        try translating(.freeSpace, path) { try Files.freeSpace(path) }
    }
}

/// A descriptor opened for appending.
final class PosixFile: JournalFile {
    private let fd: FileDescriptor
    let path: String

    init(_ fd: FileDescriptor, path: String) {
        self.fd = fd
        self.path = path
    }

    func append(_ bytes: [UInt8]) throws { try translating(.append, path) { try fd.writeAll(bytes) } }

    func syncData() throws { try translating(.sync, path) { try fd.syncData() } }

    func truncate(to size: Int) throws { try translating(.truncate, path) { try fd.truncate(to: size) } }

    func close() { fd.close() }
}

/// The room's `SystemError` in the journal's words: which operation on which path.
private func translating<T>(_ operation: FileSystemError.Operation, _ path: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let e as SystemError {
        throw FileSystemError(operation, path, e.errno)
    }
}
