import WatchCore
@testable import Journal

/// A night at anchor as events at seconds of the monotonic clock: mark, radius, arm, holding,
/// a drag that rings, a snooze, a re-ring, a refused stale snooze, disarm; a second anchor by
/// position, a short excursion that rings, a snooze that ends with the boat back inside (alarm
/// stop), a GPS outage that raises and clears a fault, disarm, release.
struct ScriptedNight {
    var events: [(t: Double, event: Event)] = []

    /// Short snooze and GPS grace, so the night is short enough to replay thousands of times;
    /// the evidence rule stated here, so the script's drags ring whatever the defaults become.
    static var settings: WatchSettings {
        var s = WatchSettings()
        s.snooze = .seconds(60)
        s.gpsGrace = .seconds(20)
        s.window = .seconds(10)
        s.confirmation = .seconds(8)
        s.fastest = .seconds(3)
        s.deadband = 1
        s.noiseFloor = 3
        s.noisePrior = 3
        return s
    }

    init(seed: UInt64 = 1) {
        var rng = SplitMix64(seed: seed)
        let origin = Coordinate(latitude: 50.15, longitude: -5.07)
        var t = 0.0
        func fix(_ at: Coordinate, accuracy: Double = 3) -> Event {
            let jitter = Geodesy.destination(from: at, bearing: Double.random(in: 0..<360, using: &rng),
                                             distance: Meters(Double.random(in: 0...2, using: &rng)))
            return .reading(GPSReading(mode: .threeD, position: jitter, accuracy: Meters(accuracy), received: Instant(seconds: t)))
        }
        func fixes(_ n: Int, _ at: (Int) -> Coordinate) {
            for i in 0..<n {
                t += 1
                events.append((t, fix(at(i))))
            }
        }
        func add(_ e: Event) {
            t += 0.5
            events.append((t, e))
        }
        func drift(from c: Coordinate, _ i: Int, _ speed: Double) -> Coordinate {
            Geodesy.destination(from: c, bearing: 200, distance: Meters(Double(i) * speed))
        }

        fixes(8) { _ in origin }
        add(.decision(.mark(.here)))
        add(.decision(.setRadius(40)))
        add(.decision(.setRadius(2)))  // refused: out of range
        add(.armSwitch(on: true))
        fixes(90) { _ in origin }
        // Drag at 0.6 m/s: checking, dragging, ringing.
        fixes(120) { i in drift(from: origin, i, 0.6) }
        let away = drift(from: origin, 120, 0.6)
        add(.button(.short))  // snoozes episode 1
        fixes(75) { _ in away }  // the snooze ends still outside: episode 2 rings
        add(.decision(.snooze(episode: 1)))  // a stale client: refused
        add(.decision(.snooze(episode: 2)))
        fixes(20) { _ in away }
        add(.armSwitch(on: false))
        // Re-anchor where the boat is, by position, with a smaller radius.
        add(.decision(.mark(.at(away))))
        add(.decision(.setRadius(30)))
        add(.armSwitch(on: true))
        fixes(30) { _ in away }
        let out = Geodesy.destination(from: away, bearing: 90, distance: 60)
        fixes(40) { _ in out }  // out long enough to ring (episode 3)
        add(.button(.long))  // any press snoozes while ringing
        fixes(70) { _ in away }  // back inside before the snooze ends: alarm stop
        for _ in 0..<10 {  // GPS outage: can't judge, then the GPS fault after the grace period
            t += 5
            add(.tick)
        }
        fixes(20) { _ in away }
        add(.decision(.mark(.offset(bearing: 10, distance: 50))))  // refused: armed
        add(.armSwitch(on: false))
        add(.decision(.mark(.offset(bearing: 10, distance: 50))))
        fixes(20) { _ in away }
        add(.decision(.release))
        fixes(10) { _ in away }
    }
}

/// The event loop's journal part, exactly as the lead's loop is asked to run it.
struct NightRunner {
    var watch = Watch(settings: ScriptedNight.settings)
    let journal: Journal
    /// The watch's restorable state at the last turn whose records were all saved.
    var acknowledged: WatchMemory
    /// The turn in flight when a write failed, with the durable records it tried to commit.
    var inFlight: (before: WatchMemory, records: [JournalRecord])?
    var turns = 0
    /// Record types written, when asked for (string work is slow in a debug build).
    var kinds: Set<RecordType>?

    init(journal: Journal, restored: WatchMemory, at t: Double) {
        self.journal = journal
        self.acknowledged = restored
        _ = watch.restore(restored, at: Instant(seconds: t))
    }

    /// Runs one event; false once a write was not saved.
    mutating func run(_ event: Event, at t: Double) -> Bool {
        let s = stamp(t)
        let before = WatchMemory(of: watch)
        let actions = watch.handle(event, at: s.monotonic)
        turns += 1
        let result = journal.record(actions, pace: TrackPace(of: watch), at: s)
        if kinds != nil { for a in actions { if let r = JournalRecord.from(a, at: s.monotonic) { kinds!.insert(r.type) } } }
        switch result.saved {
        case .saved:
            acknowledged = WatchMemory(of: watch)
        case .nothing:
            // Nothing durable was due: the watch's restorable state must not have changed.
            if WatchMemory(of: watch) != before { return false }
        case .notSaved:
            let records = actions.compactMap { JournalRecord.from($0, at: s.monotonic) }.filter(\.type.isDurableAtOnce)
            inFlight = (before, records)
            return false
        }
        return true
    }
}
