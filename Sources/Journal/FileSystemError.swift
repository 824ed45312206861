import Posix
/// A failed file operation: what was tried, on which path, and the errno it ended with.
public struct FileSystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Operation: String, Hashable, Sendable {
        case list, makeDirectory, read, size, create, open, append, sync, truncate, rename, unlink,
            syncDirectory, freeSpace
    }

    public var operation: Operation
    public var path: String
    public var errno: Errno

    public init(_ operation: Operation, _ path: String, _ errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    public var description: String { "\(operation.rawValue) \(path): \(errno)" }
}
