import Drivers
import Signals
import WatchCore

/// Decides what the box sounds now and drives the buzzer line from its steps. Priority: the
/// alarm over everything; a chirp plays over the fault pattern, which resumes after it. The
/// siren hears the same decisions by name (alarm, fault, chirp, not saved) and keeps the same
/// priority in its own voice.
final class Annunciator {
    private let buzzer: BuzzerLine?
    private let siren: SirenOutput?
    private let book: SoundBook
    private var alarm = false
    private var fault = false
    private var player = PatternPlayer()
    private var chirpEnd: Instant?
    private var level = false

    init(buzzer: BuzzerLine?, siren: SirenOutput?, book: SoundBook) {
        self.buzzer = buzzer
        self.siren = siren
        self.book = book
        buzzer?.set(on: false)
    }

    var isAlarmSounding: Bool { alarm }

    func alarm(on: Bool, now: Instant) {
        guard on != alarm else { return }
        alarm = on
        chirpEnd = nil
        siren?.setAlarm(on, now: now)
        choose(now: now)
    }

    func fault(on: Bool, now: Instant) {
        guard on != fault else { return }
        fault = on
        siren?.setFault(on, now: now)
        choose(now: now)
    }

    /// A chirp is never dropped: while the alarm rings it is simply not heard over it.
    func chirp(_ chirp: Chirp, now: Instant) {
        guard !alarm else { return }
        let p = book.chirp(chirp)
        siren?.chirp(chirp, now: now)
        start(p, now: now)
        chirpEnd = now + p.length
    }

    /// A decision the journal could not make durable: its own pattern, as distinct as a refusal,
    /// in place of the confirmation it did not earn. Played like a chirp.
    func notSaved(now: Instant) {
        guard !alarm else { return }
        let p = book.notSaved
        siren?.notSaved(now: now)
        start(p, now: now)
        chirpEnd = now + p.length
    }

    /// Silences everything (shutdown): the buzzer line ends low.
    func silence() {
        alarm = false
        fault = false
        player.stop()
        siren?.stopAll()
        set(false)
    }

    /// The chirp's end (the fault pattern resumes after it) and, with a buzzer fitted, its line's
    /// next step. Without one the steps move nothing (the siren times its own), so the loop
    /// does not wake for them.
    func nextDeadline(now: Instant) -> Instant? {
        var next = chirpEnd
        if buzzer != nil, let change = player.nextChange(after: now) {
            next = next.map { min($0, change) } ?? change
        }
        return next
    }

    /// Called each loop turn: ends a finished chirp and moves the buzzer to the current step.
    func update(now: Instant) {
        if let end = chirpEnd, now >= end {
            chirpEnd = nil
            choose(now: now)
        }
        set(player.isOn(at: now))
    }

    private func choose(now: Instant) {
        if alarm {
            start(book.alarm, now: now)
        } else if chirpEnd != nil {
            return
        } else if fault {
            start(book.fault, now: now)
        } else {
            player.stop()
            set(false)
        }
    }

    private func start(_ p: SoundPattern, now: Instant) {
        player.start(p, at: now)
        set(player.isOn(at: now))
    }

    private func set(_ on: Bool) {
        guard on != level else { return }
        level = on
        buzzer?.set(on: on)
    }
}

/// Which pattern each sound is: Signals' sound design (Docs/sound.md); tests may use another.
protocol SoundBook {
    var alarm: SoundPattern { get }
    var fault: SoundPattern { get }
    func chirp(_ chirp: Chirp) -> SoundPattern
    /// A decision taken but not saved in the journal.
    var notSaved: SoundPattern { get }
}

struct DesignedSounds: SoundBook {
    var alarm: SoundPattern { SoundDesign.alarmBuzz }
    var fault: SoundPattern { SoundDesign.fault }
    func chirp(_ chirp: Chirp) -> SoundPattern { SoundDesign.chirp(chirp) }
    var notSaved: SoundPattern { SoundDesign.notSaved }
}
