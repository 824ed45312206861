import Journal
import Posix
/// An in-memory file system that behaves like a pessimistic disk across a power cut, for tests,
/// fuzzing and benchmarks. `simulateCrash()` forgets everything not made durable:
/// file data since the file's last `syncData`, and directory changes (create, rename, unlink)
/// since the directory's last `syncDirectory`. Errors can be injected on any operation, and the
/// file system can "die" at its Nth mutating operation, failing that one and all after it.
public final class SimulatedFileSystem: JournalFileSystem {
    final class Inode {
        var data: [UInt8] = []
        var durable: [UInt8] = []
    }

    /// An injected failure: `errno` on the next `times` calls of `operations` (forever if nil).
    public struct Injection {
        public var errno: Errno
        public var operations: Set<FileSystemError.Operation>
        public var times: Int?
        /// A failing append writes this share of its bytes first, as a real short write would.
        public var partialWrite: Double
    }

    private var names: [String: Inode] = [:]
    private var durableNames: [String: Inode] = [:]
    private var directories: Set<String> = ["/", "."]
    private var injections: [Injection] = []

    /// Mutating operations so far (create, append, sync, truncate, rename, unlink, syncDirectory).
    public private(set) var operations = 0
    /// Fail this mutating operation (1-based) and every one after it with EIO, until a crash.
    public var dieAtOperation: Int?
    public private(set) var isDead = false

    // What the card would see.
    public private(set) var bytesAppended = 0
    public private(set) var dataSyncs = 0
    public private(set) var directorySyncs = 0
    /// Free space reported, and enforced on append (ENOSPC) when set.
    public var capacity: Int64?

    public init() {}

    // MARK: - Test controls

    public func inject(_ errno: Errno, on operations: Set<FileSystemError.Operation>, times: Int? = nil,
                       partialWrite: Double = 0) {
        injections.append(Injection(errno: errno, operations: operations, times: times, partialWrite: partialWrite))
    }

    public func clearInjections() { injections.removeAll() }

    /// A power cut. `survivingTail` decides what survives of each file's unsynced appended bytes
    /// (default: nothing); return a prefix to model a torn write, or add zeros or garbage.
    public func simulateCrash(survivingTail: (ArraySlice<UInt8>) -> [UInt8] = { _ in [] }) {
        names = durableNames
        for inode in names.values {
            if inode.data.count > inode.durable.count, inode.data.starts(with: inode.durable) {
                inode.data = inode.durable + survivingTail(inode.data[inode.durable.count...])
            } else {
                inode.data = inode.durable
            }
            inode.durable = inode.data
        }
        isDead = false
        dieAtOperation = nil
        operations = 0
    }

    /// The bytes of a file as they are now (not necessarily durable); nil if absent.
    public func contents(_ path: String) -> [UInt8]? { names[Self.normalize(path)]?.data }

    /// Replaces a file's bytes, durably, as if written long ago (for tests that build damage).
    public func setContents(_ path: String, _ bytes: [UInt8]) {
        let p = Self.normalize(path)
        let inode = names[p] ?? Inode()
        inode.data = bytes
        inode.durable = bytes
        names[p] = inode
        durableNames[p] = inode
        directories.insert(Self.parent(p))
    }

    public func removeDirectory(_ path: String) {
        let p = Self.normalize(path)
        directories.remove(p)
        for name in names.keys where Self.parent(name) == p { names[name] = nil; durableNames[name] = nil }
    }

    public var usedBytes: Int64 { Int64(names.values.reduce(0) { $0 + $1.data.count }) }

    // MARK: - JournalFileSystem

    public func list(_ directory: String) throws -> [String] {
        let d = Self.normalize(directory)
        try fail(.list, d)
        guard directories.contains(d) else { throw FileSystemError(.list, d, .notFound) }
        return names.keys.filter { Self.parent($0) == d }.map { String($0.split(separator: "/").last ?? "") }
    }

    public func makeDirectory(_ path: String) throws {
        let d = Self.normalize(path)
        try fail(.makeDirectory, d)
        var prefix = d.hasPrefix("/") ? "" : "."
        for part in d.split(separator: "/") {
            prefix = prefix == "." ? String(part) : prefix + "/" + part
            directories.insert(prefix)
        }
    }

    public func read(_ path: String) throws -> [UInt8] {
        let p = Self.normalize(path)
        try fail(.read, p)
        guard let inode = names[p] else { throw FileSystemError(.read, p, .notFound) }
        return inode.data
    }

    public func size(_ path: String) throws -> Int {
        let p = Self.normalize(path)
        try fail(.size, p)
        guard let inode = names[p] else { throw FileSystemError(.size, p, .notFound) }
        return inode.data.count
    }

    public func create(_ path: String) throws -> any JournalFile {
        let p = Self.normalize(path)
        try mutate(.create, p)
        guard directories.contains(Self.parent(p)) else { throw FileSystemError(.create, p, .notFound) }
        guard names[p] == nil else { throw FileSystemError(.create, p, .exists) }
        let inode = Inode()
        names[p] = inode
        return SimulatedFile(fs: self, inode: inode, path: p)
    }

    public func openForAppending(_ path: String) throws -> any JournalFile {
        let p = Self.normalize(path)
        try fail(.open, p)
        guard let inode = names[p] else { throw FileSystemError(.open, p, .notFound) }
        return SimulatedFile(fs: self, inode: inode, path: p)
    }

    public func rename(_ from: String, to: String) throws {
        let f = Self.normalize(from), t = Self.normalize(to)
        try mutate(.rename, f)
        guard let inode = names[f] else { throw FileSystemError(.rename, f, .notFound) }
        names[f] = nil
        names[t] = inode
    }

    public func unlink(_ path: String) throws {
        let p = Self.normalize(path)
        try mutate(.unlink, p)
        guard names[p] != nil else { throw FileSystemError(.unlink, p, .notFound) }
        names[p] = nil
    }

    public func syncDirectory(_ path: String) throws {
        let d = Self.normalize(path)
        try mutate(.syncDirectory, d)
        guard directories.contains(d) else { throw FileSystemError(.syncDirectory, d, .notFound) }
        for name in durableNames.keys where Self.parent(name) == d { durableNames[name] = nil }
        for (name, inode) in names where Self.parent(name) == d { durableNames[name] = inode }
        directorySyncs += 1
    }

    public func freeSpace(_ path: String) throws -> Int64 {
        try fail(.freeSpace, Self.normalize(path))
        guard let capacity else { return 1 << 40 }
        return max(0, capacity - usedBytes)
    }

    // MARK: - File operations, called by SimulatedFile

    func append(_ bytes: [UInt8], to inode: Inode, path: String) throws {
        do {
            try mutate(.append, path)
        } catch let error as FileSystemError {
                        inode.data += bytes.prefix(Int(Double(bytes.count) * lastFailureShare))
            throw error
        }
        if let capacity, usedBytes + Int64(bytes.count) > capacity {
            inode.data += bytes.prefix(Int(max(0, capacity - usedBytes)))
            throw FileSystemError(.append, path, .noSpace)
        }
        inode.data += bytes
        bytesAppended += bytes.count
    }

    func sync(_ inode: Inode, path: String) throws {
        try mutate(.sync, path)
        inode.durable = inode.data
        dataSyncs += 1
    }

    func truncate(_ inode: Inode, to size: Int, path: String) throws {
        try mutate(.truncate, path)
        if size < inode.data.count { inode.data.removeSubrange(size...) }
        else { inode.data += [UInt8](repeating: 0, count: size - inode.data.count) }
    }

    // MARK: - Failure machinery

    /// How much of a failing append lands anyway: all of it when the disk dies (the crash policy
    /// then decides what survives), the injection's share otherwise.
    private var lastFailureShare = 0.0

    /// A mutating operation: counts toward `dieAtOperation`, then any injection.
    private func mutate(_ op: FileSystemError.Operation, _ path: String) throws {
        lastFailureShare = 0
        if !isDead {
            operations += 1
            if let n = dieAtOperation, operations >= n { isDead = true; lastFailureShare = 1 }
        }
        if isDead { throw FileSystemError(op, path, .io) }
        try fail(op, path)
    }

    private func fail(_ op: FileSystemError.Operation, _ path: String) throws {
        guard let i = injections.firstIndex(where: { $0.operations.contains(op) }) else { return }
        let injection = injections[i]
        if let times = injection.times {
            if times <= 1 { injections.remove(at: i) } else { injections[i].times = times - 1 }
        }
        lastFailureShare = injection.partialWrite
        throw FileSystemError(op, path, injection.errno)
    }

    static func normalize(_ path: String) -> String {
        var p = path
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }
        return p.isEmpty ? "." : p
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// An open file of the simulated file system.
final class SimulatedFile: JournalFile {
    private let fs: SimulatedFileSystem
    private let inode: SimulatedFileSystem.Inode
    private let path: String
    private var open = true

    init(fs: SimulatedFileSystem, inode: SimulatedFileSystem.Inode, path: String) {
        self.fs = fs
        self.inode = inode
        self.path = path
    }

    func append(_ bytes: [UInt8]) throws {
        guard open else { throw FileSystemError(.append, path, .badDescriptor) }
        try fs.append(bytes, to: inode, path: path)
    }

    func syncData() throws {
        guard open else { throw FileSystemError(.sync, path, .badDescriptor) }
        try fs.sync(inode, path: path)
    }

    func truncate(to size: Int) throws {
        guard open else { throw FileSystemError(.truncate, path, .badDescriptor) }
        try fs.truncate(inode, to: size, path: path)
    }

    func close() { open = false }
}
