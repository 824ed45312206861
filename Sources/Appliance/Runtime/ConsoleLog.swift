import WatchCore

/// `run`'s own log on standard output (systemd's journal adds the time): one line per change
/// worth telling, in the product's words.
enum ConsoleLog {
    static func attach(to box: Box, settings: WatchSettings) {
        let previous = box.onActions
        box.onActions = { actions, now in
            previous?(actions, now)
            for action in actions {
                if let line = Narration.line(action, now: now, settings: settings) { Console.out(line) }
            }
        }
        let previousReceipt = box.onReceipt
        box.onReceipt = { receipt, saved, now in
            previousReceipt?(receipt, saved, now)
            // The decision's line said what the watch now does; this says it is not on the card.
            if !saved { Console.out("\(Copy.receipt(receipt, now: now)). \(notSaved)") }
        }
    }

    /// The words for a decision the journal could not make durable, on every surface.
    static let notSaved = "Log: not saved, the box will forget this after a restart"
}
