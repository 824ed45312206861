import WatchCore

/// `run`'s own log on standard output (systemd's journal adds the time): one line per change
/// worth telling, in the product's words. A part that hears the box's actions and receipts.
final class ConsoleLog: Part, BoxListener {
    let settings: WatchSettings
    /// The sounders, so a sounder's fault says what still sounds as the status does
    /// (`SystemsCheck.told`).
    let fitted: Set<SystemsCheck.Component>
    let absent: Set<SystemsCheck.Component>

    init(settings: WatchSettings, fitted: Set<SystemsCheck.Component> = [], absent: Set<SystemsCheck.Component> = []) {
        self.settings = settings
        self.fitted = fitted
        self.absent = absent
    }

    var hearing: BoxListener? { self }

    func heard(_ actions: [Action], box: Box, now: Instant) {
        for action in actions {
            if case .faultRaised(let f) = action, f.kind == .buzzer || f.kind == .siren {
                let others = box.watch.faults.values.filter { $0.kind != f.kind }
                let told = SystemsCheck.told([f] + others, fitted: fitted, absent: absent)[0]
                Console.out("Fault: \(told.message)")
                continue
            }
            if let line = Narration.line(action, now: now, settings: settings) { Console.out(line) }
        }
    }

    func confirmed(_ receipt: Receipt, saved: Bool, now: Instant) {
        // The decision's line said what the watch now does; this says it is not on the card.
        if !saved { Console.out("\(Words.receipt(receipt, now: now)). \(Self.notSaved)") }
    }

    /// What the service log says about the alarm it came back with after a restart: a latched
    /// alarm rings again at once, and the log must say why it rings with no drag in sight.
    /// `snoozed`: the journal had that alarm snoozed (a restart ends a snooze: its end was on
    /// the monotonic clock).
    static func restored(_ alarm: AlarmState, snoozed: Bool = false) -> String? {
        switch alarm {
        case .ringing(let e) where snoozed:
            "Alarm: ringing again after a restart, alarm \(e) was snoozed and a restart ends a snooze"
        case .ringing(let e): "Alarm: ringing again after a restart, alarm \(e) was not answered before the box stopped"
        case .armed: "Alarm on after a restart, as the journal had it"
        case .off, .snoozed: nil
        }
    }

    /// The words for a decision the journal could not make durable, on every surface.
    static let notSaved = "Journal: not saved, the box will forget this after a restart"
}
