#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Journal
import WatchCore
import XCTest

final class StatusSnapshotTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory("snap") }
    override func tearDown() { removeTree(dir) }

    /// A real status: holding, checking, or snoozed with a siren fault.
    func sample(_ kind: String = "checking") -> (WatchStatus, Instant) {
        switch kind {
        case "holding": Statuses.holding()
        case "snoozed": Statuses.snoozed()
        default: Statuses.checking()
        }
    }

    func snapshot(_ sample: (WatchStatus, Instant), wall: WallTime = WallTime(seconds: 1_800_000_000)) -> StatusSnapshot {
        StatusSnapshot(status: sample.0, now: sample.1, wall: wall,
                       writer: .init(bootID: "boot-a", pid: 42, monotonic: 5000),
                       validFor: StatusSnapshot.validity(interval: .seconds(30)),
                       checks: SystemsCheck.boxRows(status: sample.0, fitted: [.gpsd, .buzzer], local: []))
    }

    func testRoundTripThroughTextKeepsEveryField() throws {
        let s = snapshot(sample("snoozed"))
        let back = try StatusSnapshot(json: try JSON.parse(s.json.text(indented: true)))
        // The shared writer keeps 7 decimals: decoding and encoding again changes nothing.
        XCTAssertEqual(back.json.text, s.json.text)
        XCTAssertEqual(back.alarm, s.alarm)
        XCTAssertEqual(back.checks, s.checks)
        XCTAssertEqual(back.faults, s.faults)
        XCTAssertEqual(back.alarm.episode, 1)
        XCTAssertEqual(back.alarm.state, .snoozed)
        XCTAssertEqual(back.position.verdict, .dragging)
        let checking = snapshot(sample("checking"))
        XCTAssertEqual(try StatusSnapshot(json: try JSON.parse(checking.json.text)).json.text, checking.json.text)
        XCTAssertEqual(checking.position.verdict, .checking)
        XCTAssertNotNil(checking.position.progress)
        XCTAssertEqual(back.faults.first?.kind, .siren)
        XCTAssertEqual(back.checks.first { $0.component == .siren }?.status, .failing)
    }

    func testSnoozeEndLimitsHowLongTheSnapshotIsBelieved() {
        // A 300 s snooze: the steady validity (75 s) is the earlier limit.
        let (status, now) = sample("snoozed")
        let s = snapshot((status, now))
        XCTAssertEqual(s.alarm.snoozedUntil?.seconds, 1_800_000_300)
        XCTAssertEqual(s.validUntil.seconds, 1_800_000_075)
        // Written 10 s before the snooze ends: believed only until 5 s after its end.
        let soon = snapshot((status, now + .seconds(290)))
        XCTAssertEqual(soon.alarm.snoozedUntil?.seconds, 1_800_000_010)
        XCTAssertEqual(soon.validUntil.seconds, 1_800_000_015)
    }

    func testStaleDetection() {
        let s = snapshot(sample())  // written at monotonic 5000, valid 75 s
        let alive: (Int32) -> Bool = { _ in true }
        let w = s.writtenAt
        func judge(_ wall: Double, mono: Double, boot: String? = "boot-a", alive: (Int32) -> Bool = alive) -> String {
            switch SnapshotReading.judge(s, now: w + .seconds(wall), monotonic: mono, bootID: boot, isAlive: alive) {
            case .current: "current"
            case .stale: "stale"
            case .stopped: "stopped"
            case .missing: "missing"
            case .unreadable: "unreadable"
            }
        }
        XCTAssertEqual(judge(10, mono: 5010), "current")
        XCTAssertEqual(judge(80, mono: 5080), "stale")
        // The wall clock jumped an hour forward (first sync after boot): same boot, the
        // monotonic clock says 10 s, so it is current.
        XCTAssertEqual(judge(3600, mono: 5010), "current")
        // The wall clock jumped back: the monotonic clock still says it is old.
        XCTAssertEqual(judge(-3600, mono: 5200), "stale")
        XCTAssertEqual(judge(10, mono: 5010, alive: { _ in false }), "stopped")
        XCTAssertEqual(judge(10, mono: 10, boot: "boot-b"), "stopped", "a snapshot from another boot is never current")
        XCTAssertEqual(judge(10, mono: 0, boot: nil), "current", "no boot id: the wall clock is all there is")
        XCTAssertEqual(judge(76, mono: 0, boot: nil), "stale")
    }

    func testWriterWritesOnChangeAndAtItsSteadyRateOnly() throws {
        let writer = SnapshotWriter(directory: dir, interval: .seconds(30), fitted: [])
        // The loop's monotonic and wall clocks advance together, from this machine's (a reader
        // on the same boot judges the writer's monotonic time, which is the `now` it is given).
        let base = WallTime.now(), start = MonotonicClock.now()
        func publish(_ status: WatchStatus, at t: Double) -> Bool {
            writer.publish(status, now: start + .seconds(t), wall: base + .seconds(t))
        }
        let holding = sample("holding").0
        let snoozed = sample("snoozed").0
        XCTAssertTrue(publish(holding, at: 10))
        // Due at 40 on any turn; the timer wakes for it alone only at 45 (a sixth late).
        XCTAssertEqual(writer.nextDeadline(), start + .seconds(45))
        var same = holding
        same.readingAge = .seconds(0.5)
        same.distance = Meters((holding.distance?.value ?? 0) + 3)
        same.accuracy = 9
        XCTAssertFalse(publish(same, at: 11), "a new fix of a swinging boat waits for the steady rate")
        // Snoozed at 11 for 300 s, on this test's clock.
        var s1 = snoozed
        s1.alarm = .snoozed(until: start + .seconds(311), episode: 1)
        XCTAssertTrue(publish(s1, at: 11), "a change is written at once")
        // 29 s later the watch says "snoozed for 4:31": the countdown is not a change.
        var s2 = s1
        s2.wontRing = "Won't ring: snoozed for 4:31"
        // No reading since (a new one while dragging would be written: the next test).
        s2.readingAge = (s1.readingAge ?? .zero) + .seconds(29)
        XCTAssertFalse(publish(s2, at: 40))
        XCTAssertTrue(publish(s2, at: 41), "the steady rate writes a quiet box")
        XCTAssertEqual(writer.writes, 3)

        let reading = SnapshotReading.read(directory: dir)
        guard case .current(let s) = reading else { return XCTFail("expected current, got \(reading)") }
        XCTAssertEqual(s.position.says, "Dragging")
        XCTAssertEqual(s.alarm.state, .snoozed)
        XCTAssertEqual(s.writer.pid, getpid())
    }

    /// A live write is the last whole write's text with the live fields after it: byte for byte
    /// the snapshot's own text, so a reader can't tell the two writes apart.
    func testALiveWriteIsTheWholeSnapshotsText() {
        for kind in ["holding", "checking", "snoozed"] {
            let s = snapshot(sample(kind))
            XCTAssertEqual(String(decoding: SnapshotWriter.text(rest: SnapshotWriter.rest(s), live: s.live), as: UTF8.self),
                           s.json.text(indented: true) + "\n", kind)
        }
        // Every live field unknown: left out, and the GPS object empty.
        var (bare, now) = sample("holding")
        bare.verdict = .cantJudge(.noReading)
        bare.distance = nil
        bare.readingAge = nil
        bare.accuracy = nil
        bare.boat = nil
        bare.farthest = nil
        let s = snapshot((bare, now))
        XCTAssertEqual(String(decoding: SnapshotWriter.text(rest: SnapshotWriter.rest(s), live: s.live), as: UTF8.self),
                       s.json.text(indented: true) + "\n")
        XCTAssertTrue(s.json.text(indented: true).contains("\"gps\": {}"))
    }

    /// While checking, dragging or ringing the snapshot follows the readings (a new one, at most
    /// every `liveGap`); while holding only every `quietGap`.
    func testWhileItMattersTheWriterFollowsEveryReading() throws {
        let writer = SnapshotWriter(directory: dir, interval: .seconds(30), fitted: [])
        let base = WallTime.now(), start = MonotonicClock.now()
        func publish(_ status: WatchStatus, at t: Double) -> Bool {
            writer.publish(status, now: start + .seconds(t), wall: base + .seconds(t))
        }
        func read() throws -> StatusSnapshot {
            let reading = SnapshotReading.read(directory: dir)
            guard case .current(let s) = reading else {
                XCTFail("no current snapshot: \(reading)")
                throw StatusSnapshot.DecodeError(description: "no current snapshot")
            }
            return s
        }
        var checking = sample("checking").0
        checking.readingAge = .zero
        XCTAssertTrue(publish(checking, at: 10))
        var next = checking
        next.distance = Meters((checking.distance?.value ?? 0) + 2)
        XCTAssertTrue(publish(next, at: 11), "a new reading while checking is written at once")
        XCTAssertEqual(try read().distance?.value ?? 0, next.distance?.value ?? -1, accuracy: 0.001)
        XCTAssertEqual(try read().gps.readingAt?.seconds ?? 0, (base + .seconds(11)).seconds, accuracy: 0.001)
        XCTAssertEqual(try read().writtenAt.seconds, (base + .seconds(11)).seconds, accuracy: 0.001)
        var same = next
        same.readingAge = .milliseconds(900)
        XCTAssertFalse(publish(same, at: 11.9), "the same reading again is not a write")
        var soon = next
        soon.distance = Meters((next.distance?.value ?? 0) + 0.2)
        XCTAssertFalse(publish(soon, at: 11.1), "a reading 0.1 s after a write waits for the live gap")
        XCTAssertTrue(publish(soon, at: 12), "and goes with the next reading past it")
        XCTAssertEqual(writer.liveWrites, 2)
        XCTAssertEqual(try read().position.verdict, .checking, "the rest of the snapshot is as the last whole write had it")

        var holding = sample("holding").0
        holding.readingAge = .zero
        XCTAssertTrue(publish(holding, at: 20))
        var moved = holding
        moved.distance = Meters((holding.distance?.value ?? 0) + 2)
        XCTAssertFalse(publish(moved, at: 21), "holding: a new reading 1 s after a write waits")
        moved.distance = Meters((holding.distance?.value ?? 0) + 3)
        XCTAssertFalse(publish(moved, at: 24.9))
        XCTAssertTrue(publish(moved, at: 25), "and is written 5 s after it")
        XCTAssertEqual(writer.liveWrites, 3)
    }

    /// The writer decides from `ChangeKey` without building the snapshot; the key must change
    /// exactly when the snapshot's `content` (what is worth a write at once) does.
    func testTheChangeKeyChangesExactlyWhenTheContentDoes() {
        var statuses: [(WatchStatus, Instant)] = [sample("holding"), sample("checking"), sample("snoozed")]
        for (base, now) in statuses {
            var v = base
            v.distance = Meters((base.distance?.value ?? 0) + 7)
            v.accuracy = 11
            v.readingAge = .seconds(3)
            statuses.append((v, now))
            v.radius = Meters(base.radius.value + 5)
            statuses.append((v, now))
            v.faults = []
            statuses.append((v, now))
            v.readingAge = nil
            statuses.append((v, now))
            v.verdict = .checking(progress: 0.52)
            statuses.append((v, now))
            v.verdict = .checking(progress: 0.53)
            statuses.append((v, now))
            v.anchor = nil
            statuses.append((v, now))
        }
        for a in statuses {
            for b in statuses {
                let sameKey = SnapshotWriter.ChangeKey(a.0, localRows: []) == SnapshotWriter.ChangeKey(b.0, localRows: [])
                let sameContent = snapshot(a).content == snapshot(b).content
                XCTAssertEqual(sameKey, sameContent, "\(a.0) vs \(b.0)")
            }
        }
    }

    /// The writer compares its last key with the status in place (`ChangeKey.same(as:)`): it
    /// must say what building the key and comparing would, for every field of the key.
    func testTheKeyComparedInPlaceIsTheKeyBuiltAndCompared() {
        var statuses: [WatchStatus] = []
        for (base, _) in [sample("holding"), sample("checking"), sample("snoozed")] {
            statuses.append(base)
            var v = base
            v.distance = Meters((base.distance?.value ?? 0) + 7)
            v.readingAge = .seconds(3)
            statuses.append(v)
            var w = base
            let changes: [(inout WatchStatus) -> Void] = [
                { $0.verdict = .cantJudge(.noReading) }, { $0.verdict = .cantJudge(.stale) }, { $0.verdict = .noAnchor },
                { $0.alarm = .off }, { $0.wontRing = "Won't ring: something else" }, { $0.anchor = nil },
                { $0.radius = Meters(base.radius.value + 1) }, { $0.faults = [] },
                { $0.faults = [Fault(.gpsd, "gpsd: no answer", pushes: true)] }, { $0.faultSounding.toggle() },
                { $0.readingAge = nil }, { $0.gpsUnusable = .noReading }, { $0.radiusAdvice = "Set 40 m" },
                { $0.radiusAdvice = nil }, { $0.ringsBeyond = Meters(12) }, { $0.excursions = Meters(16) }, { $0.ringsAfter = .seconds(60) }, { $0.wander = Meters(3.4) },
                { $0.wander = Meters(3.6) }, { $0.wander = Meters(4.4) }, { $0.suggestedRadius = Meters(44) },
                { $0.swing = nil }, { $0.swingOffer = nil },
            ]
            for change in changes {
                var one = base
                change(&one)
                statuses.append(one)
                change(&w)
                statuses.append(w)
            }
        }
        let rowsA = [SystemsCheck.Row(.gpsd, .ok, "Yes")], rowsB = [SystemsCheck.Row(.gpsd, .failing, "No")]
        var compared = 0
        for a in statuses {
            for b in statuses {
                for (ra, rb) in [([], []), (rowsA, rowsA), (rowsA, rowsB), ([], rowsA)] as [([SystemsCheck.Row], [SystemsCheck.Row])] {
                    var key = SnapshotWriter.ChangeKey(a, localRows: ra)
                    XCTAssertEqual(key.same(as: b, localRows: rb), key == SnapshotWriter.ChangeKey(b, localRows: rb),
                                   "\(a) vs \(b)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 10_000)
    }

    func testAWriterThatFindsTheLockHeldSkipsAndRetriesWithoutBlocking() throws {
        let writer = SnapshotWriter(directory: dir, interval: .seconds(30), fitted: [])
        let fd = open(dir + "/" + SnapshotFile.lockName, O_RDWR | O_CREAT, 0o644)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        // flock locks belong to the open file description: a second open in this process
        // conflicts like another process would.
        let start = BoxIdentity.monotonicSeconds()
        XCTAssertFalse(writer.publish(sample().0, now: Instant(seconds: 5)))
        XCTAssertLessThan(BoxIdentity.monotonicSeconds() - start, 0.5)
        XCTAssertEqual(writer.lastError?.wouldBlock, true)
        XCTAssertEqual(writer.nextDeadline(), Instant(seconds: 6), "retries a second later")
        close(fd)
        XCTAssertTrue(writer.publish(sample().0, now: Instant(seconds: 6)))
        XCTAssertNil(writer.lastError)
    }

    /// A runtime directory that can't be made (a path under a regular file): the writer is still
    /// made (MQTT publishes the status it builds), says why, and tries again less and less often,
    /// up to once an interval, so a box left like that for a night does not wake every second.
    func testAnUnwritableDirectoryIsRetriedNoFasterThanTheIntervalAtLength() throws {
        let file = dir + "/plain-file"
        XCTAssertEqual(close(open(file, O_WRONLY | O_CREAT, 0o644)), 0)
        let writer = SnapshotWriter(directory: file + "/run", interval: .seconds(30), fitted: [])
        XCTAssertNotNil(writer.lastError, "the directory could not be made")
        var now = Instant(seconds: 0)
        var gaps: [Double] = []
        for _ in 0..<8 {
            XCTAssertFalse(writer.publish(sample().0, now: now))
            let next = try XCTUnwrap(writer.nextDeadline())
            gaps.append((next - now).seconds)
            now = next
        }
        XCTAssertEqual(gaps, [1, 2, 4, 8, 16, 30, 30, 30])
    }

    func testTheFileIsReplacedWholeAndLeavesNoTempBehind() throws {
        let writer = SnapshotWriter(directory: dir, interval: .seconds(1), fitted: [])
        for i in 0..<50 {
            writer.publish(sample(i % 2 == 0 ? "holding" : "snoozed").0, now: Instant(seconds: Double(i * 2)))
            // Whole and decodable after every write (its currency is judged at the samples' own
            // virtual instants, not this machine's clock: `testWriterWritesOnChange...`).
            guard let bytes = try SnapshotFile.read(directory: dir), (try? StatusSnapshot(json: JSON.parse(bytes: bytes))) != nil
            else { return XCTFail("unreadable after write \(i)") }
        }
        XCTAssertEqual(access(dir + "/status.json.tmp", F_OK), -1)
        var st = stat()
        XCTAssertEqual(stat(dir + "/status.json", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o644)
    }

    func testAZombieBoxIsNotAlive() {
        // kill(pid, 0) succeeds for a zombie: the state letter in /proc/PID/stat tells.
        let me = getpid()
        _ = runProgram(["/bin/mkdir", "-p", "\(dir)/proc/\(me)"])
        func stat(_ text: String) {
            let fd = open("\(dir)/proc/\(me)/stat", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        stat("\(me) (anchor-alert) S 1 2 3\n")
        XCTAssertTrue(BoxIdentity.isAlive(pid: me, procRoot: dir + "/proc"))
        stat("\(me) (anchor alert (x)) Z 1 2 3\n")
        XCTAssertFalse(BoxIdentity.isAlive(pid: me, procRoot: dir + "/proc"))
        XCTAssertTrue(BoxIdentity.isAlive(pid: me), "this test process is alive")
        XCTAssertFalse(BoxIdentity.isAlive(pid: 0))
    }

    func testMissingAndDamagedSnapshots() throws {
        guard case .missing = SnapshotReading.read(directory: dir) else { return XCTFail() }
        let fd = open(dir + "/status.json", O_WRONLY | O_CREAT, 0o644)
        _ = write(fd, "{\"format\":\"anchor-alert-status\",\"vers", 36)
        close(fd)
        guard case .unreadable = SnapshotReading.read(directory: dir) else { return XCTFail() }
    }

    func testStatusCommandNeverShowsAStaleSnapshotsContent() throws {
        // A snapshot written long ago by this very process on this boot: stale, not repeated.
        var s = snapshot(sample("holding"), wall: WallTime.now() - .seconds(600))
        s.writer = .init(bootID: BoxIdentity.bootID() ?? "x", pid: getpid(), monotonic: BoxIdentity.monotonicSeconds() - 600)
        try SnapshotFile.write(s.json.text(indented: true), directory: dir)
        let r = runProgram([applianceBinary, "status", "--runtime-dir", dir])
        XCTAssertEqual(r.code, 3, r.out + r.err)
        XCTAssertTrue(r.out.hasPrefix("Box not answering: last heard from at "), r.out)
        XCTAssertTrue(r.out.contains("10 min ago"), r.out)
        XCTAssertFalse(r.out.contains("Holding"), "a stale status must not be repeated")
        let j = runProgram([applianceBinary, "status", "--json", "--runtime-dir", dir])
        XCTAssertEqual(j.code, 3)
        XCTAssertEqual(try JSON.parse(j.out)["box"]?.string, "not_answering")

        let none = runProgram([applianceBinary, "status", "--runtime-dir", dir + "/nothing"])
        XCTAssertEqual(none.code, 4)
        XCTAssertTrue(none.out.hasPrefix("Box not running"))
    }
}
