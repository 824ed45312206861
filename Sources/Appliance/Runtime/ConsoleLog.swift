import WatchCore

/// `run`'s own log on standard output (systemd's journal adds the time): one line per change
/// worth telling, in the product's words.
enum ConsoleLog {
    static func attach(to box: Box, settings: WatchSettings) {
        let previous = box.onActions
        box.onActions = { actions, now in
            previous?(actions, now)
            var out = OutputBuffer()
            for action in actions {
                if let line = Narration.line(action, now: now, settings: settings) { out.line(line) }
            }
            out.flush()
        }
    }
}
