import WatchCore

/// The part of every decision command's help that is the same: how it waits, and exit codes.
enum DecisionHelp {
    static let common = """
          --timeout SECONDS    how long to wait for the box's answer (default 10)
          --json               print the box's reply as one JSON object
        \(SurfaceOptions.help)

        Prints "Sent, waiting for the box", then the box's receipt once the decision is saved
        in its log, or its refusal and the reason. No answer in time is said as such: the
        decision may or may not have been taken.

        Exit status: 0 receipt, 1 refused, 2 an unreadable answer, 3 no answer in time,
        4 the box is not running or can't be reached, 5 taken but the log could not save it,
        64 usage.
        """

    /// Runs the shared tail of a decision command: parse the common options, then send.
    static func send(_ name: String, _ a: inout Arguments, _ decide: (SurfaceOptions, inout Arguments) throws -> Decision) -> Int32 {
        let options: SurfaceOptions
        let client: ControlClient.Options
        let decision: Decision
        do {
            options = try SurfaceOptions.take(from: &a)
            var c = try ControlClient.Options.take(from: &a)
            c.directory = options.runtimeDirectory
            client = c
            decision = try decide(options, &a)
        } catch let e as EarlyExit {
            return e.code
        } catch let e as Arguments.UsageError {
            Console.error("anchor-alert \(name): \(e)")
            return ExitCode.usage
        } catch {
            Console.error("\(error)")
            return ExitCode.failure
        }
        return ControlClient.send(decision, options: client)
    }
}

/// A decision command that stops before sending, with its message already printed.
struct EarlyExit: Error {
    var code: Int32
}
