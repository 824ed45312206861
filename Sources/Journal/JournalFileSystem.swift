/// The few file operations the journal needs, so tests can swap in a file system that forgets
/// what was not synced and fails on demand. Every throwing requirement throws `FileSystemError`.
/// Paths are absolute or relative strings; names from `list` are bare file names.
public protocol JournalFileSystem: AnyObject {
    /// File names in `directory` (no "." or ".."), in no particular order.
    func list(_ directory: String) throws -> [String]
    /// Creates `path` and its missing parents; an existing directory is fine.
    func makeDirectory(_ path: String) throws
    func read(_ path: String) throws -> [UInt8]
    /// At most the first `limit` bytes of `path`: recovery never reads a file whole unbounded.
    func read(_ path: String, limit: Int) throws -> [UInt8]
    func size(_ path: String) throws -> Int
    /// Creates a new file for appending; fails with EEXIST if it exists.
    func create(_ path: String) throws -> any JournalFile
    /// Opens an existing file for appending (and truncating).
    func openForAppending(_ path: String) throws -> any JournalFile
    func rename(_ from: String, to: String) throws
    func unlink(_ path: String) throws
    /// fsync on the directory: makes creations, renames and unlinks in it durable.
    func syncDirectory(_ path: String) throws
    /// Bytes an unprivileged writer may still use on the file system holding `path`.
    func freeSpace(_ path: String) throws -> Int64
}

/// An open file the journal appends to.
public protocol JournalFile: AnyObject {
    /// Writes all of `bytes` at the end (short writes continue).
    func append(_ bytes: [UInt8]) throws
    /// fdatasync: the data and the size are durable when this returns.
    func syncData() throws
    func truncate(to size: Int) throws
    /// Never fails loudly and is never retried (a retried close may close someone else's fd).
    func close()
}

extension JournalFileSystem {
    /// For file systems that only read whole files (test doubles): the bound is applied after.
    public func read(_ path: String, limit: Int) throws -> [UInt8] { Array(try read(path).prefix(limit)) }
}
