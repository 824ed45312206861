import WatchCore

/// Every sound the box makes, on the buzzer and on the siren (Docs/sound.md is the table).
///
/// The buzzer has one pitch, so every pattern differs in rhythm, not only in tone: where two
/// outcomes must be told apart (mark and release, arm and disarm, accepted and refused) they
/// have a different number of notes. The siren plays the same steps with their pitches, except
/// for the alarm, where the buzzer buzzes 0.2 s on, 0.2 s off and the siren sounds two tones
/// without a gap, the loudest thing it can do.
public enum SoundDesign {
    /// Each interface chirp, after the design system's haptics table (its "build to" rows:
    /// release a light tap, snooze a sound of its own).
    public static func chirp(_ chirp: Chirp) -> SoundPattern {
        typealias S = SoundPattern.Step
        switch chirp {
        case .radiusStep:
            // Selection: the smallest tick, once per step.
            return SoundPattern([S(2093, .milliseconds(25))])
        case .acknowledge:
            // Heard you, nothing to do: a short mid tick.
            return SoundPattern([S(1047, .milliseconds(40))])
        case .release:
            // Light: one short low note, never mark's two rising notes.
            return SoundPattern([S(880, .milliseconds(70))])
        case .arm:
            // Medium: one firm high note.
            return SoundPattern([S(1568, .milliseconds(180))])
        case .mark:
            // Success: short then long, rising.
            return SoundPattern([S(1047, .milliseconds(70)), S(nil, .milliseconds(70)), S(1568, .milliseconds(180))])
        case .disarm:
            // Warning: two long notes, falling; arm is one.
            return SoundPattern([S(1568, .milliseconds(180)), S(nil, .milliseconds(100)), S(1047, .milliseconds(180))])
        case .snooze:
            // Its own: long then short, falling, "sleep on".
            return SoundPattern([S(1319, .milliseconds(250)), S(nil, .milliseconds(120)), S(880, .milliseconds(60))])
        case .refusal:
            // Error: three rapid low raps; no accepted decision has three notes.
            return SoundPattern([
                S(440, .milliseconds(60)), S(nil, .milliseconds(50)), S(440, .milliseconds(60)),
                S(nil, .milliseconds(50)), S(440, .milliseconds(60)),
            ])
        case .checking:
            // Medium, worth a look: two slow notes.
            return SoundPattern([S(1175, .milliseconds(100)), S(nil, .milliseconds(150)), S(1175, .milliseconds(100))])
        }
    }

    /// A decision the box applied but could not save in the journal (a failed card): it will be
    /// forgotten after a restart. Four low notes, the last one long: no confirmation has more
    /// than two, the refusal has three short ones, so "taken, not saved" never sounds like "yes"
    /// or like "no". The journal fault's slow pattern follows it.
    public static let notSaved = SoundPattern([
        .init(330, .milliseconds(90)), .init(nil, .milliseconds(70)), .init(330, .milliseconds(90)),
        .init(nil, .milliseconds(70)), .init(330, .milliseconds(90)), .init(nil, .milliseconds(70)),
        .init(262, .milliseconds(400)),
    ])

    /// The alarm's siren tones: high and low, 0.2 s each, the high tone with the buzzer's on.
    public static let alarmHigh = 2000.0
    public static let alarmLow = 1500.0
    public static let alarmStep: Duration = .milliseconds(200)

    /// The buzzer while ringing: 0.2 s on, 0.2 s off, until snoozed or switched off.
    public static let alarmBuzz = SoundPattern(
        [.init(alarmHigh, alarmStep), .init(nil, alarmStep)], repeats: true)

    /// The siren while ringing: a two-tone hi-lo with no gap, the pattern people know as an
    /// alarm, in the 1.5 to 2 kHz band where small speakers are loud and ears most sensitive.
    public static let alarmSiren = SoundPattern(
        [.init(alarmHigh, alarmStep), .init(alarmLow, alarmStep)], repeats: true)

    /// A fault that pushes: one low half-second note every 2.5 s, like a smoke alarm asking for
    /// a battery. Never the alarm's rhythm or tones: a fault's cause may be innocent.
    public static let fault = SoundPattern(
        [.init(660, .milliseconds(500)), .init(nil, .milliseconds(2000))], repeats: true)

    /// What `test-alarm` plays on the siren, once: a second of the alarm, a pause, one fault note.
    public static let testAlarm = SoundPattern(
        Array(repeating: alarmSiren.steps, count: 3).flatMap { $0 }
            + [.init(nil, .milliseconds(300)), .init(660, .milliseconds(500))])

    /// The waveform each sound takes on the siren: the alarm as loud as the speaker goes, the
    /// chirps soft at night.
    public static func waveform(for pattern: SoundPattern) -> Waveform {
        pattern == alarmSiren || pattern == testAlarm ? .bright : .sine
    }
}
