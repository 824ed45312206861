import WatchCore

/// Why the journal can't save, as the box announces it: the kind decides the words.
public struct JournalFailure: Error, Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case diskFull = "disk_full"
        case readOnly = "read_only"
        case ioError = "io_error"
    }

    public var kind: Kind
    public var error: FileSystemError

    public init(_ error: FileSystemError) {
        self.error = error
        switch error.errno {
        case .noSpace, .quotaExceeded: kind = .diskFull
        case .readOnly: kind = .readOnly
        default: kind = .ioError
        }
    }

    /// One line for Systems Check and the fault pattern, "Label: consequence".
    public var message: String {
        switch kind {
        case .diskFull: "Journal: storage is full, changes are not saved"
        case .readOnly: "Journal: storage is read-only, changes are not saved"
        case .ioError: "Journal: can't write to storage, changes are not saved"
        }
    }

    /// The fault the watch raises while the journal can't save. It pushes: a decision the
    /// skipper took is only in memory, and a power cut now would lose it.
    public var fault: Fault { Fault(.journal, message, pushes: true) }
}
