import Glibc
import Posix

/// A pseudo-terminal pair in raw mode: what is written to `master` is what a program reading
/// `devicePath` gets (a receiver, for gpsd).
enum PseudoTerminal {
    static func open() throws -> (master: FileDescriptor, devicePath: String) {
        // posix_openpt and friends need _XOPEN_SOURCE, which the Glibc module lacks: the same
        // three steps by hand (open the multiplexer, unlock, ask the number).
        let master = try FileDescriptor.open("/dev/ptmx", [.readWrite, .noControllingTerminal])
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned int): function-like
        // macros Swift can't import; the values are the same on x86_64 and arm64.
        try master.control(0x4004_5431, &unlock, call: "TIOCSPTLCK")
        try master.control(0x8004_5430, &number, call: "TIOCGPTN")
        var tio = termios()
        tcgetattr(master.rawValue, &tio)
        cfmakeraw(&tio)
        tcsetattr(master.rawValue, TCSANOW, &tio)
        return (master, "/dev/pts/\(number)")
    }
}
