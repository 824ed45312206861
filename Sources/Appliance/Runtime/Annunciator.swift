import Drivers
import Signals
import WatchCore

/// Decides what the box sounds now and drives the buzzer line from its steps. Priority: the
/// alarm over everything; a chirp plays over the fault pattern, which resumes after it.
final class Annunciator {
    private let buzzer: BuzzerLine?
    private let siren: SoundOutput?
    private let book: SoundBook
    private var alarm = false
    private var fault = false
    private var playing: (pattern: SoundPattern, start: Instant)?
    private var chirpEnd: Instant?
    private var level = false

    init(buzzer: BuzzerLine?, siren: SoundOutput?, book: SoundBook) {
        self.buzzer = buzzer
        self.siren = siren
        self.book = book
        buzzer?.set(on: false)
    }

    var isAlarmSounding: Bool { alarm }
    var isFaultSounding: Bool { fault }

    func alarm(on: Bool, now: Instant) {
        guard on != alarm else { return }
        alarm = on
        chirpEnd = nil
        choose(now: now)
    }

    func fault(on: Bool, now: Instant) {
        guard on != fault else { return }
        fault = on
        choose(now: now)
    }

    /// A chirp is never dropped: while the alarm rings it is simply not heard over it.
    func chirp(_ chirp: Chirp, now: Instant) {
        guard !alarm else { return }
        let p = book.chirp(chirp)
        start(p, now: now)
        chirpEnd = now + p.length
    }

    /// Silences everything (shutdown): the buzzer line ends low.
    func silence() {
        alarm = false
        fault = false
        playing = nil
        siren?.stop()
        set(false)
    }

    func nextDeadline(now: Instant) -> Instant? {
        var next = chirpEnd
        if let (p, start) = playing, let change = Self.nextChange(p, start: start, after: now) {
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
        guard let (p, start) = playing else { return set(false) }
        set(Self.isOn(p, start: start, at: now))
    }

    private func choose(now: Instant) {
        if alarm {
            start(book.alarm, now: now)
        } else if chirpEnd != nil {
            return
        } else if fault {
            start(book.fault, now: now)
        } else {
            playing = nil
            siren?.stop()
            set(false)
        }
    }

    private func start(_ p: SoundPattern, now: Instant) {
        playing = (p, now)
        siren?.play(p)
        set(Self.isOn(p, start: now, at: now))
    }

    private func set(_ on: Bool) {
        guard on != level else { return }
        level = on
        buzzer?.set(on: on)
    }

    // The pattern's timeline: where `now` falls in it, and when the buzzer level next changes.
    static func isOn(_ p: SoundPattern, start: Instant, at now: Instant) -> Bool {
        step(p, start: start, at: now)?.step.isOn ?? false
    }

    static func nextChange(_ p: SoundPattern, start: Instant, after now: Instant) -> Instant? {
        guard let (_, end) = step(p, start: start, at: now) else { return nil }
        return end
    }

    private static func step(_ p: SoundPattern, start: Instant, at now: Instant) -> (step: SoundPattern.Step, end: Instant)? {
        let length = p.length.nanoseconds
        guard length > 0, !p.steps.isEmpty else { return nil }
        var elapsed = (now - start).nanoseconds
        guard elapsed >= 0 else { return nil }
        var cycleStart = start
        if elapsed >= length {
            guard p.repeats else { return nil }
            let cycles = elapsed / length
            elapsed -= cycles * length
            cycleStart = start + .nanoseconds(cycles * length)
        }
        var t: Int64 = 0
        for s in p.steps {
            t += s.duration.nanoseconds
            if elapsed < t { return (s, cycleStart + .nanoseconds(t)) }
        }
        return nil
    }
}

/// Which pattern each sound is. Signals' sound design provides the real table.
protocol SoundBook {
    var alarm: SoundPattern { get }
    var fault: SoundPattern { get }
    func chirp(_ chirp: Chirp) -> SoundPattern
}
