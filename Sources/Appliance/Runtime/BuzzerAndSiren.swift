import Drivers
import LightsAndSounds
import WatchCore

/// Sounds what the box means on both voices and drives the buzzer line from its steps. The
/// priority is `SoundPriority`'s, decided there once for the buzzer and the siren alike: the
/// alarm over everything; a one-shot (a chirp, "not saved") over the fault pattern, which
/// resumes after it. The siren hears the same decisions by name and follows the same priority
/// in its own voice.
final class BuzzerAndSiren {
    private let buzzer: BuzzerLine?
    private let siren: SirenOutput?
    private let book: SoundBook
    private var priority = SoundPriority()
    /// What the buzzer's player plays.
    private var playing: SoundPriority.Sound?
    private var player = PatternPlayer()
    private var chirpEnd: Instant?
    private var level = false

    init(buzzer: BuzzerLine?, siren: SirenOutput?, book: SoundBook) {
        self.buzzer = buzzer
        self.siren = siren
        self.book = book
        buzzer?.set(on: false)
    }

    var isAlarmSounding: Bool { priority.alarm }
    /// What the buzzer plays: what `SoundPriority` says is heard (the siren says its own,
    /// `ALSASiren.sounding`).
    var sounding: SoundPriority.Sound? { playing }

    func alarm(on: Bool, now: Instant) {
        guard on != priority.alarm else { return }
        priority.setAlarm(on)
        if priority.oneShot == nil { chirpEnd = nil }
        siren?.setAlarm(on, now: now)
        choose(now: now)
    }

    func fault(on: Bool, now: Instant) {
        guard on != priority.fault else { return }
        priority.setFault(on)
        siren?.setFault(on, now: now)
        choose(now: now)
    }

    /// A chirp is never dropped: while the alarm rings it is simply not heard over it.
    func chirp(_ chirp: Chirp, now: Instant) {
        let p = book.chirp(chirp)
        guard priority.play(p) else { return }
        siren?.chirp(chirp, now: now)
        playOneShot(p, now: now)
    }

    /// A decision the journal could not make durable: its own pattern, as distinct as a refusal,
    /// in place of the confirmation it did not earn. Played like a chirp.
    func notSaved(now: Instant) {
        let p = book.notSaved
        guard priority.play(p) else { return }
        siren?.notSaved(now: now)
        playOneShot(p, now: now)
    }

    /// Silences everything (shutdown): the buzzer line ends low.
    func silence() {
        priority.silence()
        playing = nil
        chirpEnd = nil
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
            priority.oneShotEnded()
            choose(now: now)
        }
        set(player.isOn(at: now))
    }

    /// Plays what the priority says is heard, when that changed (a one-shot starts in `playOneShot`).
    private func choose(now: Instant) {
        let sound = priority.heard
        guard sound != playing else { return }
        playing = sound
        switch sound {
        case .alarm: start(book.alarm, now: now)
        case .fault: start(book.fault, now: now)
        case .oneShot: break
        case nil:
            player.stop()
            set(false)
        }
    }

    /// A one-shot starts afresh, even over the same one; it ends by its pattern's length.
    private func playOneShot(_ p: SoundPattern, now: Instant) {
        playing = .oneShot
        chirpEnd = now + p.length
        start(p, now: now)
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

/// Which pattern each sound is: LightsAndSounds' sound design (Docs/sound.md); tests may use another.
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
