import Posix
import WatchCore

/// The command line's end of the control socket: sends one decision, says it is waiting, and
/// prints the box's answer in the box's words. It never says a decision is done before the
/// box's receipt: no answer in time is reported as no answer.
///
/// Exit codes: 0 receipt (saved), 1 refused by the box, 2 an answer it could not read,
/// 3 no answer in time, 4 the box is not running or can't be reached, 5 receipt but the
/// journal could not save it.
enum ControlClient {
    enum Exit {
        static let receipt: Int32 = 0
        static let refused: Int32 = 1
        static let unreadable: Int32 = 2
        static let noAnswer: Int32 = 3
        static let notRunning: Int32 = 4
        static let notSaved: Int32 = 5
    }

    struct Options {
        var directory = SnapshotFile.defaultDirectory
        var timeout: Duration = .seconds(10)
        var json = false

        /// Takes the options every decision command shares.
        static func take(from args: inout Arguments) throws -> Options {
            var o = Options()
            if let d = try args.option("--runtime-dir") { o.directory = d }
            if let t = try args.double("--timeout") {
                guard t > 0 else { throw Arguments.UsageError(description: "--timeout needs a positive number of seconds") }
                o.timeout = .seconds(t)
            }
            o.json = args.flag("--json")
            return o
        }
    }

    static func send(_ decision: Decision, options: Options) -> Int32 {
        let path = ControlProtocol.socketPath(options.directory)
        let fd: FileDescriptor
        do {
            fd = try UnixSocket.connect(to: path)
        } catch let e as SystemError {
            switch e.errno {
            case .notFound, .connectionRefused:
                Console.error("Box not running: nothing answers at \(path)")
            case .accessDenied, .notPermitted:
                Console.error("Can't reach the box: not allowed to use \(path). Run as a member of its group")
            default:
                Console.error("Can't reach the box: \(e)")
            }
            return Exit.notRunning
        } catch {
            Console.error("Can't reach the box: \(error)")
            return Exit.notRunning
        }
        defer { fd.close() }
        let id = "c\(Process.id)"
        do {
            try fd.writeAll((ControlProtocol.request(id: id, decision) + "\n").utf8, call: "send")
        } catch {
            Console.error("Can't reach the box: \(error)")
            return Exit.notRunning
        }
        let waiting = "Sent, waiting for the box"
        if options.json { Console.error(waiting) } else { Console.out(waiting) }

        guard let line = readLine(fd, timeout: options.timeout) else {
            Console.error("No answer from the box in \(Int(options.timeout.seconds.rounded())) s: "
                + "it may or may not have taken the \(decision.name). Run anchor-alert status before trying again")
            return Exit.noAnswer
        }
        guard let reply = try? JSON.parse(bytes: line), let result = reply["result"]?.string, let says = reply["says"]?.string else {
            Console.error("The box answered something unreadable: \(String(decoding: line.prefix(200), as: UTF8.self))")
            return Exit.unreadable
        }
        if options.json { Console.out(reply.text) }
        switch result {
        case "receipt":
            let saved = reply["saved"]?.bool ?? false
            if !options.json { Console.out(says) }
            return saved ? Exit.receipt : Exit.notSaved
        case "refused", "error":
            if !options.json { Console.error(says) }
            return Exit.refused
        default:
            Console.error("The box answered something unreadable: \(result)")
            return Exit.unreadable
        }
    }

    /// One reply line, or nil on timeout or a hang-up without an answer.
    private static func readLine(_ fd: FileDescriptor, timeout: Duration) -> [UInt8]? {
        let deadline = BoxIdentity.monotonicSeconds() + timeout.seconds
        var got: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 1024)
        while true {
            if let nl = got.firstIndex(of: 0x0A) { return Array(got[..<nl]) }
            let left = deadline - BoxIdentity.monotonicSeconds()
            guard left > 0 else { return nil }
            let r = Poll.wait(for: fd.rawValue, events: PollEvents.readable, timeoutMilliseconds: Int32(min(left * 1000, 60_000).rounded(.up)))
            if r == 0 { continue }
            guard let n = try? buf.withUnsafeMutableBytes({ try fd.receive(into: $0) }), n > 0 else { return nil }
            got += buf[0..<n]
            if got.count > 64 * 1024 { return nil }
        }
    }
}
