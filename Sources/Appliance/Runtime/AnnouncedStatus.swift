import WatchCore

/// What the box tells others (the network outputs) while decisions wait on the journal: a
/// decision is announced with its receipt, saved or not, never before it (Docs/network.md).
/// While any decision waits, the status told is the one that stood before the first of them,
/// with what no decision changes kept fresh (the GPS reading's age and accuracy, the boat's
/// position and, about the same anchor, its distance; the faults, so a journal that fails is
/// told at once). An alarm that starts ringing is told at once, with the verdict it rings on,
/// and stays told until a receipt says otherwise. Pure: the box hands in the live status.
struct AnnouncedStatus {
    /// The status as it stood before the first decision still waiting, while one waits.
    private(set) var held: WatchStatus?
    private var last: WatchStatus?

    mutating func status(live: WatchStatus, waiting: Bool) -> WatchStatus {
        guard waiting else {
            held = nil
            last = live
            return live
        }
        if held == nil { held = last ?? live }
        if case .ringing = live.alarm, live.alarm != held!.alarm {
            held!.alarm = live.alarm
            held!.verdict = live.verdict
            held!.wontRing = live.wontRing
        }
        var s = held!
        s.readingAge = live.readingAge
        s.accuracy = live.accuracy
        s.boat = live.boat
        s.faults = live.faults
        s.faultSounding = live.faultSounding
        if s.anchor == live.anchor {
            s.distance = live.distance
            s.farthest = live.farthest
        }
        last = s
        return s
    }
}
