import Posix

/// What went wrong with a GPIO line, in the terms a Systems Check row needs. Built from libgpiod's
/// -errno in one place (`GPIOError.init(errno:chip:line:)`), so every caller sees the same cases.
public enum GPIOError: Error, Hashable, Sendable {
    /// No such chip (ENOENT on open, or no chip at all when searching by line name).
    case chipMissing(chip: String)
    /// The chip (or every chip) has no line of that name, or no such offset.
    case lineNotFound(line: String)
    /// Another consumer holds the line (EBUSY).
    case lineBusy(line: String)
    /// The process may not open the chip (EACCES, EPERM).
    case permissionDenied(chip: String)
    case other(line: String, errno: Errno)

    /// Sorts libgpiod's errno into a case. `chip` and `line` name the thing for the message.
    init(errno code: Errno, chip: String, line: String) {
        switch code {
        case .notFound, .noDevice, .noSuchDevice: self = .chipMissing(chip: chip)
        case .busy: self = .lineBusy(line: line)
        case .accessDenied, .notPermitted: self = .permissionDenied(chip: chip)
        case .invalid: self = .lineNotFound(line: line)
        default: self = .other(line: line, errno: code)
        }
    }

    /// The cause, as the middle of a fault line ("Buzzer: <cause>, <consequence>. <remedy>").
    var cause: String {
        switch self {
        case .chipMissing(let chip): "no GPIO chip \(chip)"
        case .lineNotFound(let line): "no GPIO line \(line)"
        case .lineBusy(let line): "line \(line) is held by another program"
        case .permissionDenied(let chip): "no permission to use \(chip)"
        case .other(let line, let code): "line \(line) failed (\(code))"
        }
    }
}
