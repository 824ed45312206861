import Drivers
import Journal
import Posix
import WatchCore

/// How `run` joins its parts once they are built (`Wiring`): each function one part, so
/// `RunCommand.run` reads as the list of them.
enum RunParts {
    /// Restored before anything else: a latched alarm rings again at once, before any fix.
    /// The recovery's notes and the last run's end are said, in the box's words.
    static func restore(_ box: Box, from recovery: Journal.Recovery, now: Instant) {
        let memory = recovery.memory
        box.restore(anchor: memory.anchor, radius: memory.radius, armed: memory.armed,
                    ringingEpisode: memory.ringingEpisode, lastEpisode: memory.lastEpisode, now: now)
        for note in recovery.notes { Console.error("\(note)") }
        // The recap says the same from the boot record (Docs/journal-format.md).
        if recovery.previousStop == .unclean {
            Console.out("Box restarted after a power cut or crash: the last run did not shut down")
        }
        if let line = ConsoleLog.restored(box.watch.alarm, snoozed: memory.snoozed) { Console.out(line) }
    }

    /// The ring shows the watch; a decision answered keeps it at working brightness for a
    /// while: a refusal at once, an accepted decision only when the journal has it (a failed
    /// save shows as the journal fault instead).
    static func confirmOnTheRing(_ ring: LEDRing?, box: Box) {
        guard let ring else { return }
        box.observers.append(ring)
        let previous = box.onActions
        box.onActions = { actions, now in
            previous?(actions, now)
            if actions.contains(where: { if case .refused = $0 { true } else { false } }) { ring.activity(at: now) }
        }
        let previousReceipt = box.onReceipt
        box.onReceipt = { receipt, saved, now in
            previousReceipt?(receipt, saved, now)
            if saved { ring.activity(at: now) }
        }
    }

    /// The loop's client: the box, the journal's completions, the console sinks; SIGHUP re-reads
    /// the configuration with `reload` and raises its fault, as a start does.
    static func runtime(_ box: Box, journal: JournalLog, reload: @escaping () -> LoadedConfiguration) -> BoxRuntime {
        let runtime = BoxRuntime(box: box)
        runtime.extraSources.append(journal)
        if let sinks = Console.loop { runtime.extraSources += [sinks.out, sinks.error] }
        runtime.onReload = { now in
            let again = reload()
            if again.problems.isEmpty {
                Console.out("Configuration: read cleanly; changes take effect at the next start")
            }
            for p in again.problems { Console.error(p) }
            if let fault = Configuration.fault(for: again.problems) { box.handle(.faultRaised(fault), now: now) }
        }
        return runtime
    }

    /// What the box knows at its first turn: the faults of the parts it lacks, the journal's
    /// recovery, the lines' own faults and the switch's position at start (a decision).
    static func start(_ devices: Wiring.Devices, box: Box, recovery: Journal.Recovery, now: Instant) {
        for f in devices.faults { box.handle(.faultRaised(f), now: now) }
        for e in recovery.events { box.handle(e, now: now) }
        for e in (devices.gpio.buzzer?.start(now: now) ?? []) + (devices.gpio.controls?.start(now: now) ?? []) {
            box.handle(e, now: now)
        }
    }

    /// systemd (Type=notify, WatchdogSec=): pinged from the loop itself at half the interval, so
    /// a stalled loop gets the service restarted; `systemctl status` says what the box says, in
    /// its words, whenever that changes.
    static func systemd(_ runtime: BoxRuntime, box: Box, cantSound: String? = nil) -> Systemd {
        let systemd = Systemd()
        if let interval = systemd.watchdogInterval {
            runtime.watchdog = (interval, { _ = try? systemd.pingWatchdog() })
        }
        let beforeStatus = box.onActions
        box.onActions = { [unowned box] actions, now in
            beforeStatus?(actions, now)
            guard actions.contains(where: { if case .verdictChanged = $0 { true } else if case .alarmChanged = $0 { true } else { false } })
            else { return }
            let s = box.watch.status(at: now)
            // Nothing that can sound comes first here too, as in `status`.
            let line = "\(Copy.verdict(s.verdict.kind)). \(Copy.alarm(s.alarm, now: now)). \(s.wontRing)"
            _ = try? systemd.status(cantSound.map { "\($0). " + line } ?? line)
        }
        return systemd
    }
}
