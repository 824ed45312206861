import WatchCore

/// What the demo's skipper does, and when (script seconds): the same inputs a real skipper
/// gives, through the same box. Reactions to the alarm are timed from when it starts ringing.
struct DemoSkipper {
    enum Move {
        case input(Event, String)
        case note(String)
    }

    private var planned: [(t: Double, move: Move)] = [
        (10, .note("Motoring in to the anchorage")),
        (31, .note("The anchor touches bottom, the bow over it: hold the button now, before the boat falls back")),
        (33, .input(.button(.long), "Button held 2 s: the anchor is marked where it lies, not a rode's length away")),
        (35, .input(.decision(.setRadius(40)), "anchor-alert radius 40")),
        (37, .input(.armSwitch(on: true), "Switch slid to ARM")),
        (60, .note("A calm swing on 22 m of rode")),
        (150, .note("One stray GPS reading 80 m off: a drag is a verdict, not one reading")),
        // A second before the script's outage (200): the box turns to Can't judge with the
        // first reading that has no position, and the note must come before it, not after.
        (199, .note("The GPS loses its position")),
        (300, .note("The GPS is back")),
        (360, .note("The anchor breaks out: dragging at 1 knot")),
    ]
    private var ringingSince: Double?
    private var rings = 0
    private var snoozedAt: Double?
    private(set) var finishedAt: Double?

    /// The moves due by `t`, given what the box is doing.
    mutating func moves(at t: Double, alarm: AlarmState) -> [Move] {
        if case .ringing = alarm, ringingSince == nil {
            ringingSince = t
            rings += 1
            planned.append((t + 8, rings == 1
                ? .input(.button(.short), "Button pressed: snooze")
                : .input(.armSwitch(on: false), "Switch slid off: the skipper is on deck")))
            if rings == 2 { finishedAt = t + 20 }
        }
        if case .ringing = alarm {} else { ringingSince = nil }
        var due: [Move] = []
        while let i = planned.firstIndex(where: { $0.t <= t }) {
            due.append(planned.remove(at: i).move)
        }
        return due
    }

    func nextMove(after t: Double) -> Double? { planned.map(\.t).filter { $0 > t }.min() }
}
