import Posix
import WatchCore

/// The running box's side of the status snapshot. The loop calls `publish` after every turn;
/// it writes when what the box says changed, and otherwise once per `interval`, so a reader
/// can tell a quiet box from a stopped one. It also follows the readings: a new one, `liveGap`
/// after the last write while it matters (checking, dragging, ringing) and `quietGap` after it
/// otherwise, rewrites the fields that move with it (`StatusSnapshot.Live`) after the rest as
/// last encoded, so while it matters the status is never more than about a second behind the
/// journal, and such a write costs a few fields, not the whole snapshot. It never blocks and
/// never throws into the loop: a failed write is kept in `lastError` and tried again on the
/// next turn.
final class SnapshotWriter {
    let directory: String
    private let paths: SnapshotFile.Paths
    let interval: Duration
    /// Components this box drives, for the Systems Check rows (see `SystemsCheck.boxRows`).
    let fitted: Set<SystemsCheck.Component>
    /// Components the configuration says are not fitted.
    let absent: Set<SystemsCheck.Component>
    private let bootID: String
    private let pid: Int32
    private var lastKey: ChangeKey?
    private var lastWrite: Instant?
    /// The last whole write's text without its live fields and closing brace (`rest`), and the
    /// reading the last write showed.
    private var encodedRest: [UInt8]?
    private var lastReading: Instant?
    /// While it matters, live writes follow the readings at most this often: every reading at
    /// 1 Hz, about one in ten at 10 Hz, so what a reader is shown is within a second of the
    /// latest reading.
    static let liveGap: Duration = .milliseconds(900)
    /// Otherwise (holding, alarm off, can't judge) at most this often: the reading's age a
    /// reader counts stays under a few seconds, for a write every 50 readings at 10 Hz.
    static let quietGap: Duration = .seconds(5)
    private(set) var liveWrites = 0
    private var retryAt: Instant?
    private(set) var lastError: SystemError?
    /// How long after a failed write the next try comes: 1 s, doubling to `interval`, so a
    /// directory that stays unwritable costs a wakeup per interval, not one a second.
    private var retryDelay: Duration = .seconds(1)
    private(set) var writes = 0
    /// The wall time of the turn a write belongs to: the loop's reading (`LoopClock`), never a
    /// clock of its own.
    private let wall: () -> WallTime

    /// Never fails: a directory it can't make is `lastError`, and every write tries again, so the
    /// parts that publish the status it builds (MQTT) work without the file. `wall` is the
    /// turn's wall time (`Wiring` gives the loop's; a test or a command may leave the system's).
    init(directory: String = SnapshotFile.defaultDirectory, interval: Duration = .seconds(RuntimeSection().statusInterval),
         fitted: Set<SystemsCheck.Component>, absent: Set<SystemsCheck.Component> = [],
         wall: @escaping () -> WallTime = WallTime.now) {
        self.directory = directory
        self.paths = SnapshotFile.Paths(directory)
        self.wall = wall
        self.interval = interval
        self.fitted = fitted
        self.absent = absent
        self.bootID = BoxIdentity.bootID() ?? "unknown"
        self.pid = Process.id
        // Owner and group may enter (the control socket's group reaches the socket); others
        // can still read the snapshot through the directory's read and search bits.
        do {
            try Files.makeDirectories(directory, mode: 0o755)
        } catch let e as SystemError {
            lastError = e
        } catch {}
    }

    /// When the loop must call `publish` again even if nothing happens. The steady write is due
    /// `interval` after the last and rides on the first turn from then on (`publish` runs every
    /// turn that changes anything, a GPS reading's included); the timer wakes for it alone only
    /// after `lateness` more, well inside the snapshot's validity (`StatusSnapshot.validity`).
    func nextDeadline() -> Instant? {
        if let retryAt { return retryAt }
        return lastWrite.map { $0 + interval + lateness }
    }

    var lateness: Duration { .nanoseconds(interval.nanoseconds / 6) }

    /// Writes the snapshot if it changed or the steady interval is due. `now` is the loop's
    /// monotonic instant (the watch's clock, also the writer's `monotonic`); `wall` the same
    /// moment on the wall clock, the turn's (`LoopClock`) unless given. `localRows` are the
    /// `SystemsMonitor`'s last rows. Returns true when it wrote.
    @discardableResult
    func publish(_ status: WatchStatus, now: Instant, wall given: WallTime? = nil, localRows: [SystemsCheck.Row] = []) -> Bool {
        // What changed is decided from the watch's status itself, without building the snapshot:
        // a holding box pays a comparison per fix, and the JSON only when it writes.
        let due = lastWrite.map { now >= $0 + interval } ?? true
        let retry = retryAt.map { now >= $0 } ?? false
        let reading = status.readingAge.map { now - $0 }
        guard due || retry || !(lastKey?.same(as: status, localRows: localRows) ?? false) else {
            guard let rest = encodedRest, let reading, reading != lastReading, let last = lastWrite,
                  now >= last + (Self.matters(status) ? Self.liveGap : Self.quietGap)
            else { return false }
            let live = StatusSnapshot.Live(status: status, now: now, wall: given ?? wall(), writer: writer(now),
                                           validFor: StatusSnapshot.validity(interval: interval))
            guard write(Self.text(rest: rest, live: live), now: now, reading: reading) else { return false }
            liveWrites += 1
            return true
        }
        let snapshot = self.snapshot(status, now: now, wall: given, localRows: localRows)
        let rest = Self.rest(snapshot)
        guard write(Self.text(rest: rest, live: snapshot.live), now: now, reading: reading) else { return false }
        lastKey = ChangeKey(status, localRows: localRows)
        encodedRest = rest
        return true
    }

    /// Checking, dragging or ringing: while the skipper may be acting on what the status says.
    static func matters(_ status: WatchStatus) -> Bool {
        switch status.verdict {
        case .checking, .dragging: return true
        case .noAnchor, .holding, .cantJudge: return status.alarm.kind == .ringing
        }
    }

    /// The whole snapshot's text but for its live fields and its closing brace: what a live
    /// write puts its fields after.
    static func rest(_ snapshot: StatusSnapshot) -> [UInt8] {
        var text = JSON.object(snapshot.staticFields).indentedBytes
        text.removeLast(2)  // "\n}"
        return text
    }

    /// `rest` and the live fields as one object: the same text as `snapshot.json` indented, and
    /// a newline (`StatusSnapshotTests` holds the two equal).
    static func text(rest: [UInt8], live: StatusSnapshot.Live) -> [UInt8] {
        var fields = IndentedFields(into: rest, depth: 0, first: false)
        fields.out.reserveCapacity(rest.count + 1024)
        live.write(into: &fields)
        fields.out.append(contentsOf: [UInt8(ascii: "\n"), UInt8(ascii: "}"), UInt8(ascii: "\n")])
        return fields.out
    }

    private func write(_ text: [UInt8], now: Instant, reading: Instant?) -> Bool {
        do {
            try SnapshotFile.write(bytes: text, to: paths)
            lastWrite = now
            lastReading = reading
            retryAt = nil
            retryDelay = .seconds(1)
            lastError = nil
            writes += 1
            return true
        } catch {
            if let e = error as? SystemError { lastError = e }
            retryAt = now + retryDelay
            retryDelay = min(retryDelay * 2, max(interval, .seconds(1)))
            return false
        }
    }

    /// Who wrote, and when on the monotonic clock: `now`, the turn's, not a clock read again.
    private func writer(_ now: Instant) -> StatusSnapshot.Writer {
        .init(bootID: bootID, pid: pid, monotonic: now.seconds)
    }

    /// The snapshot of `status`, as this box writes it (and as MQTT publishes the status the
    /// box announces, `AnnouncedStatus`).
    func snapshot(_ status: WatchStatus, now: Instant, wall given: WallTime? = nil, localRows: [SystemsCheck.Row]) -> StatusSnapshot {
        var snapshot = StatusSnapshot(
            status: status, now: now, wall: given ?? wall(), writer: writer(now),
            validFor: StatusSnapshot.validity(interval: interval),
            checks: SystemsCheck.boxRows(status: status, fitted: fitted, absent: absent, local: localRows))
        // Why it won't ring, with what can sound (the Systems Check knows the sounders).
        snapshot.wontRing = SystemsCheck.wontRing(status, fitted: fitted, absent: absent)
        snapshot.canSound = SystemsCheck.silence(status, fitted: fitted, absent: absent) == nil
        snapshot.faults = SystemsCheck.told(snapshot.faults, fitted: fitted, absent: absent)
        return snapshot
    }

    /// The part of what the box says whose change is worth a write at once, taken straight from
    /// the watch's status: the verdict, the alarm, why it won't ring, the anchor, the radius, the
    /// faults, and what the Systems Check rows are made of (`SystemsCheck.boxRows` reads the
    /// faults, the verdict, whether a reading came, and the monitor's rows). The distance, the
    /// accuracy, the reading's age and checking's progress (which move with every fix: 119
    /// writes in 70 s of a swinging boat when they counted) wait for the steady rate, or, while
    /// it matters, go with the next live write (`StatusSnapshot.Live`); a snooze's countdown
    /// waits for the steady rate (the reader counts down from `snoozed_until`). Equal keys mean
    /// equal `StatusSnapshot.content`; a field added there that must write at once goes here too.
    struct ChangeKey: Equatable {
        var verdict: PositionVerdict.Kind
        var cantJudge: CantJudgeReason?
        var alarm: AlarmState
        var wontRing: String?
        var anchor: Coordinate?
        var radius: Meters
        var faults: [Fault]
        var faultSounding: Bool
        var hasReading: Bool
        var gpsUnusable: CantJudgeReason?
        var localRows: [SystemsCheck.Row]
        /// The swing's state and what it offers (`StatusSnapshot.Glance.content`).
        var glance: StatusSnapshot.Glance.Key
        /// The radius advice (`radius_advice`); the wander behind it waits for the steady rate.
        var radiusAdvice: String?
        /// The ring distance's numbers as its words show them (`WatchStatus.ringDistance`): no
        /// words made to compare.
        var ringsBeyond: Meters?
        var excursions: Meters?
        var ringsAfter: Duration?
        var wanderShown: Int?

        init(_ status: WatchStatus, localRows: [SystemsCheck.Row]) {
            verdict = status.verdict.kind
            switch status.verdict {
            case .cantJudge(let r): cantJudge = r
            default: break
            }
            alarm = status.alarm
            if case .snoozed = status.alarm {} else { wontRing = status.wontRing }
            anchor = status.anchor
            radius = status.radius
            faults = status.faults
            faultSounding = status.faultSounding
            hasReading = status.readingAge != nil
            gpsUnusable = status.gpsUnusable
            self.localRows = localRows
            glance = StatusSnapshot.Glance.Key(status)
            radiusAdvice = status.radiusAdvice
            ringsBeyond = status.ringsBeyond
            excursions = status.excursions
            ringsAfter = status.ringsAfter
            wanderShown = status.wander.map { Int($0.value.rounded()) }
        }

        /// `self == ChangeKey(status, localRows: localRows)`, compared field by field in place:
        /// a turn that changes nothing worth a write at once (most of them) builds no key, so
        /// copies no arrays or strings (`StatusSnapshotTests` holds the two equal). The rows
        /// compare as one buffer when the box hands the same array again (`Box.checks`).
        /// `mutating` though it changes nothing: called on the writer's stored key, it is
        /// compared where it lies; a non-mutating call copied the key out first (and destroyed
        /// the copy) on every turn.
        mutating func same(as status: WatchStatus, localRows: [SystemsCheck.Row]) -> Bool {
            guard verdict == status.verdict.kind, radius == status.radius, faultSounding == status.faultSounding,
                  hasReading == (status.readingAge != nil), gpsUnusable == status.gpsUnusable, anchor == status.anchor,
                  alarm == status.alarm, ringsBeyond == status.ringsBeyond, excursions == status.excursions, ringsAfter == status.ringsAfter,
                  wanderShown == status.wander.map({ Int($0.value.rounded()) })
            else { return false }
            if case .cantJudge(let r) = status.verdict {
                guard cantJudge == r else { return false }
            } else if cantJudge != nil {
                return false
            }
            if case .snoozed = status.alarm {
                guard wontRing == nil else { return false }
            } else if wontRing != status.wontRing {
                return false
            }
            return faults == status.faults && self.localRows == localRows && radiusAdvice == status.radiusAdvice
                && glance.same(as: status)
        }
    }

    /// On a clean stop: remove the snapshot, so readers say "not running" at once rather than
    /// "not answering" after a while.
    func remove() {
        try? Files.unlink(SnapshotFile.path(directory))
    }
}
