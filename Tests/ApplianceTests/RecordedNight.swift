#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Recordings
import Journal
import WatchCore
import XCTest

/// A night built the way the box builds its journal: a real recording through the real watch,
/// its actions turned into history entries (the journal's record types), the track decimated
/// like the journal's (every fix while anything is happening, one per 10 s while calm).
struct RecordedNight {
    var entries: [HistoryEntry] = []
    /// A real journal written alongside, as the box writes it.
    var journal: Journal?
    var watch: Watch
    var wallBase: WallTime
    private var lastTrack: WallTime?

    /// The shared test data sits beside the repository (CI lays `shared/` next to its clone; a
    /// worktree of the team's machine has a `shared` link beside it): never an absolute path.
    static let data: String = {
        let here = #filePath
        var root = String(here[..<here.range(of: "/Tests/")!.lowerBound])
        root = String(root[..<root.lastIndex(of: "/")!])
        return root + "/shared/data/gps/avnav/segments/"
    }()

    init(settings: WatchSettings = .scripted, wallBase: WallTime) {
        watch = Watch(settings: settings)
        self.wallBase = wallBase
    }

    func wall(_ now: Instant) -> WallTime { wallBase + (now - .zero) }

    mutating func record(_ actions: [Action], at now: Instant) {
        let at = wall(now)
        for a in actions {
            switch a {
            case .accepted(let r, _):
                switch r.decision {
                case .mark: if let anchor = r.anchor { entries.append(.init(at: at, event: .mark(anchor))) }
                case .release: entries.append(.init(at: at, event: .release))
                case .setRadius(let m): entries.append(.init(at: at, event: .radius(m)))
                case .arm: entries.append(.init(at: at, event: .arm))
                case .disarm: entries.append(.init(at: at, event: .disarm))
                case .snooze(let ep): entries.append(.init(at: at, event: .snooze(episode: ep, length: watch.settings.snooze)))
                }
            case .alarmChanged(let from, let to):
                if case .ringing(let ep) = to { entries.append(.init(at: at, event: .alarmStart(episode: ep))) }
                if case .snoozed(_, let ep) = from, to == .armed { entries.append(.init(at: at, event: .alarmStop(episode: ep))) }
            case .verdictChanged(let from, let to):
                var reason: CantJudgeReason?
                if case .cantJudge(let r) = to { reason = r }
                entries.append(.init(at: at, event: .verdict(from: from.kind, to: to.kind, reason: reason)))
            case .faultRaised(let f): entries.append(.init(at: at, event: .faultRaised(f)))
            case .faultCleared(let k): entries.append(.init(at: at, event: .faultCleared(k)))
            case .track(let reading, let distance):
                let calm = watch.verdict.kind == .holding || watch.verdict.kind == .noAnchor
                if calm, let last = lastTrack, at - last < .seconds(10) { continue }
                if let p = reading.position {
                    entries.append(.init(at: at, event: .fix(position: p, accuracy: reading.accuracy, distance: distance)))
                    lastTrack = at
                }
            default: break
            }
        }
    }

    mutating func handle(_ event: Event, at now: Instant) {
        let actions = watch.handle(event, at: now)
        record(actions, at: now)
        _ = journal?.record(actions, pace: TrackPace(of: watch), at: Stamp(monotonic: now, wall: wall(now)))
    }

    /// Replays `file`, calling `script` before each fix with the fix's time since the start.
    static func replay(_ file: String, wallBase: WallTime, journal: String? = nil,
                       script: (inout RecordedNight, Double, Instant) -> Void) throws -> RecordedNight {
        guard let bytes = try Files.readIfPresent(data + file) else { throw SystemError(call: "open \(file)", errno: .notFound) }
        let log = try LogReader.read(bytes: bytes)
        var night = RecordedNight(wallBase: wallBase)
        if let journal, let first = log.fixes.first {
            night.journal = Journal.open(directory: journal, at: Stamp(monotonic: first.reading.received,
                                                                      wall: night.wall(first.reading.received))).journal
        }
        for fix in log.fixes {
            let now = fix.reading.received
            script(&night, fix.t, now)
            night.handle(.reading(fix.reading), at: now)
        }
        if let last = log.fixes.last {
            _ = night.journal?.flush(at: Stamp(monotonic: last.reading.received, wall: night.wall(last.reading.received)))
        }
        night.journal?.close()
        return night
    }
}

/// The boat leaves its berth with the alarm armed: it rings, is snoozed, rings again after the
/// snooze, and the skipper switches off. Plus a GPS fault that fixed itself.
func leavingBerthNight(wallBase: WallTime, journal: String? = nil) throws -> RecordedNight {
    var marked = false, armed = false, snoozed = false, off = false
    var rang: [Int: Double] = [:]
    return try RecordedNight.replay("nmea-20130630_L7478-9454_leaving-berth.log", wallBase: wallBase, journal: journal) { night, t, now in
        if !marked, t >= 30 {
            night.handle(.decision(.setRadius(30)), at: now)
            night.handle(.decision(.mark(.here)), at: now)
            marked = night.watch.anchor != nil
        }
        if marked, !armed, t >= 40 {
            night.handle(.armSwitch(on: true), at: now)
            armed = true
        }
        if armed, t >= 120, t < 121 {
            night.handle(.faultRaised(Fault(.gpsd, "GPS: gpsd is not answering", pushes: true)), at: now)
        }
        if armed, t >= 150, t < 151 { night.handle(.faultCleared(.gpsd), at: now) }
        if case .ringing(let ep) = night.watch.alarm, rang[ep] == nil { rang[ep] = t }
        // The skipper wakes and snoozes 20 s after the first ring; switches off 30 s into the second.
        if case .ringing(let ep) = night.watch.alarm, ep == 1, !snoozed, t >= rang[1]! + 20 {
            night.handle(.decision(.snooze(episode: ep)), at: now)
            snoozed = true
        }
        if case .ringing(let ep) = night.watch.alarm, ep == 2, !off, t >= rang[2]! + 30 {
            night.handle(.armSwitch(on: false), at: now)
            off = true
        }
    }
}
