import Glibc

/// A raw errno value from a failed system call, with the few the journal tells apart named.
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    public static let readOnly = Errno(rawValue: EROFS)
    public static let io = Errno(rawValue: EIO)
    public static let notFound = Errno(rawValue: ENOENT)
    public static let exists = Errno(rawValue: EEXIST)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let badDescriptor = Errno(rawValue: EBADF)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let accessDenied = Errno(rawValue: EACCES)

    /// The C library's own words ("No space left on device").
    public var description: String { String(cString: strerror(rawValue)) }
}
