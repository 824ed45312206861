import Drivers
import Journal
import Posix
import WatchCore

/// What `run` does once its box is built, before the loop turns: each step one function.
enum StartUp {
    /// Restored before anything else: a latched alarm rings again at once, before any fix.
    /// The recovery's notes and the last run's end are said, in the box's words.
    static func restore(_ box: Box, from recovery: Journal.Recovery, now: Instant) {
        let memory = recovery.memory
        box.restore(recovery, now: now)
        for note in recovery.notes { Console.error("\(note)") }
        // The recap says the same from the boot record (Docs/journal-format.md).
        if recovery.previousStop == .unclean {
            Console.out("Box restarted after a power cut or crash: the last run did not shut down")
        }
        if let line = ConsoleLog.restored(box.watch.alarm, snoozed: memory.snoozed) { Console.out(line) }
    }

    /// The whole start as one turn: the recovery restored, then `said` (the start's lines), the
    /// faults, the parts' first events and a simulated switch's position. The observers (the
    /// snapshot, the ring, the network) are shown once, where all of it left the box: a switch
    /// on ARM with an anchor restored is never shown "off" first. A latched alarm still sounds
    /// at once (the buzzer and siren follow every step, as in any turn).
    static func begin(_ box: Box, faults: [Fault], recovery: Journal.Recovery, simulatedSwitch: Bool?,
                      now: Instant, said: () -> Void = {}) {
        box.turn(now: now) {
            restore(box, from: recovery, now: now)
            said()
            start(box, faults: faults, recovery: recovery, now: now)
            // The switch's position at start is a decision, as with the real one.
            if let on = simulatedSwitch { box.handle(.armSwitch(on: on), now: now) }
        }
    }

    /// What the box knows at its first turn: the faults of the parts it lacks, the journal's
    /// recovery, the parts' own first events (the lines' faults, the switch's position at
    /// start, which is a decision).
    static func start(_ box: Box, faults: [Fault], recovery: Journal.Recovery, now: Instant) {
        for f in faults { box.handle(.faultRaised(f), now: now) }
        for e in recovery.events { box.handle(e, now: now) }
        for part in box.parts {
            for e in part.start(now: now) { box.handle(e, now: now) }
        }
    }
}

/// systemd (Type=notify): `systemctl status` says what the box says, in its words, whenever
/// the verdict or the alarm changes.
final class SystemdStatus: Part, BoxListener {
    let systemd: Systemd
    /// Nothing that can sound comes first here too, as in `status`.
    let cantSound: String?

    init(_ systemd: Systemd, cantSound: String?) {
        self.systemd = systemd
        self.cantSound = cantSound
    }

    var hearing: BoxListener? { self }

    func heard(_ actions: [Action], box: Box, now: Instant) {
        guard actions.contains(where: { if case .verdictChanged = $0 { true } else if case .alarmChanged = $0 { true } else { false } })
        else { return }
        let s = box.watch.status(at: now)
        let line = "\(Words.verdict(s.verdict.kind)). \(Words.alarm(s.alarm, now: now)). \(s.wontRing)"
        _ = try? systemd.status(cantSound.map { "\($0). " + line } ?? line)
    }
}
