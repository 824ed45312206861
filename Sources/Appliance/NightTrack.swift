import Posix
import WatchCore

/// One stretch of the journal drawn as a night: the anchor and alert radius in effect, the
/// track, and where the alarm rang. What GPX and SVG export both draw.
struct NightTrack: Sendable {
    struct Fix: Hashable, Sendable {
        var at: WallTime
        var position: Coordinate
        var accuracy: Meters?
    }

    struct Ring: Hashable, Sendable {
        var at: WallTime
        var episode: Int
        var position: Coordinate?
        var distance: Meters?
    }

    var from: WallTime
    var to: WallTime
    var anchor: Coordinate?
    var radius: Meters?
    /// Track fixes in segments: a new segment after a box restart or a gap in the track.
    var segments: [[Fix]]
    var rings: [Ring]

    var fixCount: Int { segments.reduce(0) { $0 + $1.count } }

    enum Range {
        case between(WallTime, WallTime)
        /// From the last time the switch went to ARM until it went off (or until now).
        case lastWatch
        /// The last watch and the watches before it on the same night: an arming less than
        /// `nightGap` after the watch before it ended, with no release between (a skipper who
        /// slid the switch off to stop an alarm and on again keeps that first alarm).
        case night
    }

    /// A watch that began this soon after the one before it ended is the same night.
    static let nightGap: Duration = .seconds(3 * 3600)

    struct NoTrack: Error, CustomStringConvertible {
        var description: String
    }

    /// A gap in the track longer than this starts a new segment (the journal keeps a fix per
    /// 10 s while calm, so minutes without one mean the box was off or had no fix).
    static let segmentGap: Duration = .seconds(300)

    static func build(_ history: [HistoryEntry], range: Range, now: WallTime) throws -> NightTrack {
        let (from, to): (WallTime, WallTime)
        switch range {
        case .between(let a, let b):
            guard a < b else { throw NoTrack(description: "Export: --from must be before --to") }
            (from, to) = (a, b)
        case .lastWatch, .night:
            let armedState: (HistoryEntry) -> Bool = { e in
                if case .state(_, _, true) = e.event { true } else { false }
            }
            // The last arm; or, if the log's oldest kept segment starts armed, that restatement.
            guard let armIndex = history.lastIndex(where: { $0.event == .arm }) ?? history.firstIndex(where: armedState) else {
                throw NoTrack(description: "Export: no watch in the log yet. Use --from and --to for a stretch of track")
            }
            var first = armIndex
            if case .night = range {
                while let before = history[..<first].lastIndex(where: { $0.event == .arm }) {
                    let between = history[(before + 1)..<first]
                    let ended = between.first(where: { $0.event == .disarm })?.at ?? history[first].at
                    guard !between.contains(where: { $0.event == .release }), history[first].at - ended <= nightGap else { break }
                    first = before
                }
            }
            let start = history[first].at
            let end = history[armIndex...].first(where: { $0.event == .disarm })?.at ?? max(history.last?.at ?? now, start)
            (from, to) = (start, end)
        }

        var anchor: Coordinate?
        var radius: Meters?
        var segments: [[Fix]] = []
        var current: [Fix] = []
        var rings: [Ring] = []
        var pendingRing: Int?
        for e in history {
            if e.at > to { break }
            let inside = e.at >= from
            switch e.event {
            case .state(let a, let r, _) where !inside || anchor == nil:
                anchor = a
                radius = r
            case .mark(let c): anchor = c
            case .release: if !inside { anchor = nil }
            case .radius(let m): radius = m
            case .boot where inside:
                if !current.isEmpty { segments.append(current); current = [] }
            case .alarmStart(let ep) where inside:
                rings.append(Ring(at: e.at, episode: ep, position: current.last?.position, distance: nil))
                pendingRing = rings.count - 1
            case .fix(let p, let accuracy, let distance) where inside:
                if let last = current.last, e.at - last.at > segmentGap {
                    segments.append(current)
                    current = []
                }
                current.append(Fix(at: e.at, position: p, accuracy: accuracy))
                // Where it rang: the first fix at or after the alarm, when it comes soon.
                if let i = pendingRing {
                    if e.at - rings[i].at <= .seconds(30) {
                        rings[i].position = p
                        rings[i].distance = distance
                    }
                    pendingRing = nil
                }
            default: break
            }
        }
        if !current.isEmpty { segments.append(current) }
        guard !segments.isEmpty else {
            throw NoTrack(description: "Export: the log has no track from \(from.dateAndClock) to \(to.dateAndClock)")
        }
        return NightTrack(from: from, to: to, anchor: anchor, radius: radius, segments: segments, rings: rings)
    }

    /// The title both files carry: "Anchor watch 2026-11-30 22:10 to 06:45".
    var title: String { "Anchor watch \(from.dateAndClock) to \(to - from > .seconds(20 * 3600) ? to.dateAndClock : to.clock)" }
}
