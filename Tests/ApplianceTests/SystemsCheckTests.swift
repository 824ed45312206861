#if canImport(Glibc)
import Glibc
#endif
@testable import Appliance
import Journal
import Posix
import WatchCore
import XCTest

final class SystemsCheckTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory("chk") }
    override func tearDown() { removeTree(dir) }

    func write(_ path: String, _ text: String) {
        _ = runProgram(["/bin/mkdir", "-p", String(path[..<path.lastIndex(of: "/")!])])
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
    }

    func testEveryQuestionIsAskedSoThatYesIsGood() {
        for c in SystemsCheck.Component.allCases {
            XCTAssertTrue(c.question.hasSuffix("?"), c.question)
            XCTAssertTrue(["Is", "Can", "Has"].contains { c.question.hasPrefix($0 + " ") }, c.question)
        }
    }

    func testUndervoltageFromThePisHwmonAndUnknownWhereThereIsNone() {
        var probe = SystemsProbe(journalDirectory: dir, sysfs: dir + "/sys")
        XCTAssertEqual(probe.power().status, .unknown, "no hwmon at all")
        write(dir + "/sys/class/hwmon/hwmon0/name", "cpu_thermal\n")
        XCTAssertEqual(probe.power().status, .unknown, "hwmon, but no undervoltage sensor")
        write(dir + "/sys/class/hwmon/hwmon1/name", "rpi_volt\n")
        write(dir + "/sys/class/hwmon/hwmon1/in0_lcrit_alarm", "0\n")
        XCTAssertEqual(probe.power().status, .ok)
        write(dir + "/sys/class/hwmon/hwmon1/in0_lcrit_alarm", "1\n")
        let bad = probe.power()
        XCTAssertEqual(bad.status, .failing)
        XCTAssertEqual(bad.answer, "No: undervoltage, the box may stop")
        XCTAssertEqual(bad.remedy, "Use a stronger power supply or a thicker cable")
        probe.sysfs = "/nonexistent"
        XCTAssertEqual(probe.power().status, .unknown)
    }

    func testFreeSpaceThresholds() {
        var probe = SystemsProbe(journalDirectory: dir + "/journal/not/yet/made")
        XCTAssertNotEqual(probe.journalSpace().status, .unknown, "a missing log directory is judged by its parent")
        probe.failingFreeBytes = .max
        XCTAssertEqual(probe.journalSpace().status, .failing)
        probe.failingFreeBytes = 0
        probe.attentionFreeBytes = .max
        XCTAssertEqual(probe.journalSpace().status, .attention)
        probe.attentionFreeBytes = 0
        probe.attentionFreeShare = 0
        XCTAssertEqual(probe.journalSpace().status, .ok)
    }

    func testAJournalInMemoryOrOnFATIsNotCalledSafeFromPowerCuts() throws {
        // This machine's test directories are on ext4; /dev/shm is tmpfs on every Debian.
        let card = SystemsProbe(journalDirectory: dir + "/journal/not/yet/made").journalCard()
        XCTAssertEqual(card.status, .ok, card.answer)
        XCTAssertTrue(card.answer.hasPrefix("Yes: ") && card.answer.hasSuffix(" is on ext4"), card.answer)
        XCTAssertEqual(try Files.fileSystemKind("/dev/shm"), .tmpfs)
        let memory = SystemsProbe(journalDirectory: "/dev/shm/anchor-alert-not-made").journalCard()
        XCTAssertEqual(memory.status, .attention)
        XCTAssertEqual(memory.answer, "No: /dev/shm/anchor-alert-not-made is in memory (tmpfs): a power cut loses the anchor mark and the night")
        XCTAssertEqual(memory.remedy, "Set journal.directory to a folder on the card's ext4 partition, then restart the box")
        let fat = SystemsProbe.journalCard(.fat, "/boot/firmware/journal")
        XCTAssertEqual(fat.status, .attention, "the power cuts lost receipted decisions on FAT")
        XCTAssertEqual(SystemsProbe.journalCard(.overlay, "/var/lib/anchor-alert").status, .unknown)
        XCTAssertEqual(SystemsProbe.journalCard(.other(0x6969), "/mnt/nfs").answer, "Can't tell: /mnt/nfs is on 0x6969, where power cuts were not tried")
        XCTAssertEqual(SystemsProbe(journalDirectory: "/nonexistent-root-dir/x").journalCard().status, .ok, "judged by the nearest parent that exists (/)")
    }

    func testClockRows() {
        let probe = SystemsProbe(journalDirectory: dir, runRoot: dir)
        XCTAssertEqual(probe.clock(now: WallTime(seconds: 0)).status, .attention, "1970: never set")
        XCTAssertEqual(probe.clock(now: WallTime(seconds: 1_800_000_000)).status, .unknown)
        write(dir + "/systemd/timesync/synchronized", "")
        XCTAssertEqual(probe.clock(now: WallTime(seconds: 1_800_000_000)).status, .ok)
        XCTAssertEqual(SystemsProbe.clock(wall: WallTime(seconds: 1000), gpsTime: 998).status, .ok)
        let off = SystemsProbe.clock(wall: WallTime(seconds: 1000), gpsTime: 400)
        XCTAssertEqual(off.status, .attention)
        XCTAssertEqual(off.answer, "No: 10 min ahead of GPS time, times in the log are off")
    }

    func testTheMonitorRaisesWhatFailsAndClearsOnlyWhatItRaised() {
        let m = SystemsMonitor(probe: SystemsProbe(journalDirectory: dir))
        let failing = SystemsCheck.Row(.power, .failing, "No: undervoltage, the box may stop")
        let space = SystemsCheck.Row(.journalSpace, .ok, "Yes: 3 GB free of 30 GB")
        let events = m.update(with: [failing, space])
        XCTAssertEqual(events, [.faultRaised(Fault(.power, "Power: undervoltage, the box may stop", pushes: true))])
        // Space is fine: the monitor never raised the journal fault, so it must not clear the
        // journal driver's own (a failed sync) either.
        XCTAssertFalse(events.contains(.faultCleared(.journal)))
        let cleared = m.update(with: [SystemsCheck.Row(.power, .ok, "Yes"), space])
        XCTAssertEqual(cleared, [.faultCleared(.power)])
        XCTAssertEqual(m.update(with: [SystemsCheck.Row(.power, .ok, "Yes")]), [])
        // The journal driver's own fault (a failed sync) is left alone: low space neither
        // replaces its message nor, later, clears it.
        let driver: [FaultKind: Fault] = [.journal: Fault(.journal, "Journal: can't save to storage; watching from memory")]
        XCTAssertEqual(m.update(with: [SystemsCheck.Row(.journalSpace, .failing, "No: 3 MB free of 30 GB")], active: driver), [])
        XCTAssertEqual(m.update(with: [space], active: driver), [])
        let clock = m.update(with: [SystemsCheck.Row(.clock, .attention, "Not synchronized: times in the log may be off")])
        XCTAssertEqual(clock, [.faultRaised(Fault(.clock, "Clock: not synchronized: times in the log may be off", pushes: false))],
                       "attention is a fault that does not push")
    }

    func testTheMonitorIsAPollableWithOnlyADeadline() {
        let m = SystemsMonitor(probe: SystemsProbe(journalDirectory: dir, sysfs: "/nonexistent"), interval: .seconds(60))
        XCTAssertEqual(m.pollRequests(), [])
        XCTAssertEqual(m.dueFrom(), .zero, "due at once: the first turn runs the checks")
        _ = m.service(ready: [], now: Instant(seconds: 10))
        // Due at 70 on any turn the loop takes; the timer wakes for it alone at 80.
        XCTAssertEqual(m.dueFrom(), Instant(seconds: 70))
        XCTAssertEqual(m.nextDeadline(), Instant(seconds: 80))
        XCTAssertEqual(m.rows.map(\.component), [.journalSpace, .journalCard, .power, .clock])
        XCTAssertEqual(m.service(ready: [], now: Instant(seconds: 20)), [], "not due: nothing runs")
    }

    func testBoxRowsFromFaultsAndFittedParts() {
        var (status, _) = Statuses.holding()
        status.faults = [Fault(.receiver, "GPS: the receiver is unplugged", pushes: true),
                         Fault(.config, "Configuration: line 3: unknown key x", pushes: false)]
        status.faults.append(Fault(.clock, "Clock: 10 min ahead of GPS time", pushes: false))
        let rows = SystemsCheck.boxRows(status: status, fitted: [.gpsd, .receiver, .buzzer], local: [
            SystemsCheck.Row(.power, .unknown, "Can't tell: this machine reports no undervoltage"),
            SystemsCheck.Row(.clock, .unknown, "Can't tell: no time service says it is synchronized"),
        ])
        func row(_ c: SystemsCheck.Component) -> SystemsCheck.Row { rows.first { $0.component == c }! }
        XCTAssertEqual(rows.map(\.component), SystemsCheck.Component.allCases, "one row per component, in order")
        XCTAssertEqual(row(.receiver).status, .failing)
        XCTAssertEqual(row(.receiver).remedy, "Plug the GPS receiver back in")
        // gpsd down: the box reconnects by itself once gpsd is back, no restart asked for that
        // (issue 26); only a wrong address needs one.
        var down = status
        down.faults = [Fault(.gpsd, "GPS: gpsd is not running", pushes: true)]
        let gpsd = SystemsCheck.boxRows(status: down, fitted: [.gpsd, .receiver], local: []).first { $0.component == .gpsd }
        XCTAssertTrue(gpsd?.remedy?.hasPrefix("Start gpsd (systemctl start gpsd): the box reconnects by itself.") ?? false, "\(String(describing: gpsd))")
        XCTAssertEqual(row(.configuration).status, .attention)
        XCTAssertEqual(row(.gpsd).status, .ok)
        XCTAssertEqual(row(.button).status, .unknown)
        XCTAssertEqual(row(.power).status, .unknown, "unknown stays unknown: never ok by default")
        XCTAssertEqual(row(.clock).answer, "No: Clock: 10 min ahead of GPS time", "the driver's fault beats the monitor's can't tell")
        XCTAssertEqual(row(.gpsReading).answer, "Yes")
        XCTAssertEqual(row(.siren).status, .unknown, "not known to be fitted, not known to be absent")
        XCTAssertEqual(SystemsCheck.headline(rows), "Systems Check: 1 failing, 2 need attention, 10 unknown")
        XCTAssertEqual(row(.anchorMark).status, .unknown, "no swing seen yet: can't tell")
        let noSiren = SystemsCheck.boxRows(status: status, fitted: [.buzzer], absent: [.siren], local: [])
        XCTAssertEqual(noSiren.first { $0.component == .siren }?.answer, "No siren fitted: the buzzer rings alone")
        let noBuzzer = SystemsCheck.boxRows(status: status, fitted: [.siren], absent: [.buzzer], local: [])
        XCTAssertEqual(noBuzzer.first { $0.component == .buzzer }?.status, .attention, "a box without a buzzer is worth a look")
    }

    /// The radius advice: the GPS row still answers Yes (it judges), worth a look, with the words.
    func testTheRadiusAdviceIsAGPSRowWorthALookAndInTheSnapshotAndRecap() throws {
        var (status, now) = Statuses.holding()
        let advice = Words.radiusAdvice(wander: 18, reliable: 60)
        XCTAssertEqual(advice, "GPS wanders about 18 m: an alert radius of 60 m or more rings reliably")
        status.radiusAdvice = advice
        status.wander = 18
        let rows = SystemsCheck.boxRows(status: status, fitted: [.gpsd, .receiver, .buzzer], local: [])
        let gps = try XCTUnwrap(rows.first { $0.component == .gpsReading })
        XCTAssertEqual(gps.status, .attention)
        XCTAssertEqual(gps.answer, "Yes, but " + advice)
        let snap = StatusSnapshot(status: status, now: now, wall: WallTime(seconds: 1_800_000_000),
                                  writer: .init(bootID: "b", pid: 1, monotonic: 1),
                                  validFor: .seconds(75), checks: rows)
        let back = try StatusSnapshot(json: try JSON.parse(snap.json.text))
        XCTAssertEqual(back.radiusAdvice, advice)
        XCTAssertEqual(back.wander, 18)
        XCTAssertTrue(StatusCommand.current(back, now: WallTime(seconds: 1_800_000_001)).contains(advice))
        var recap = Recap.build([], since: WallTime(seconds: 1_799_990_000), now: WallTime(seconds: 1_800_000_001))
        recap.note(advice, at: back.writtenAt)
        XCTAssertTrue(recap.lines().contains { $0.hasSuffix(advice) }, "\(recap.lines())")
    }

    /// Issue 12, hole 4: with the buzzer line faulted and no siren, the rows each said the other
    /// sounder covers and the status said "Rings if the boat drags".
    func testNothingThatCanSoundIsAFailingRowAndTheFirstReasonTheBoxWontRing() {
        var (status, _) = Statuses.holding()
        status.faults = [Fault(.buzzer, "Buzzer: GPIO17 is not answering", pushes: true)]
        let rows = SystemsCheck.boxRows(status: status, fitted: [.buzzer], absent: [.siren], local: [])
        func row(_ c: SystemsCheck.Component) -> SystemsCheck.Row { rows.first { $0.component == c }! }
        for c in [SystemsCheck.Component.buzzer, .siren] {
            XCTAssertEqual(row(c).status, .failing, "\(c)")
            XCTAssertEqual(row(c).answer, "No: nothing can sound the alarm: the buzzer has a fault and no siren is fitted")
        }
        XCTAssertEqual(row(.buzzer).remedy, "Check the buzzer's wires")
        XCTAssertEqual(row(.siren).remedy, "Fit a buzzer or a speaker: with neither the box can't ring")
        XCTAssertEqual(SystemsCheck.wontRing(status, fitted: [.buzzer], absent: [.siren]),
                       "Won't ring: nothing can sound the alarm: the buzzer has a fault and no siren is fitted")
        // First reason: even before the alarm being off.
        var off = status
        off.wontRing = "Won't ring: alarm is off"
        XCTAssertTrue(SystemsCheck.wontRing(off, fitted: [.buzzer], absent: [.siren]).hasPrefix("Won't ring: nothing can sound"))
        // Neither fitted, both said absent: the same.
        XCTAssertEqual(SystemsCheck.boxRows(status: Statuses.holding().0, fitted: [], absent: [.buzzer, .siren], local: [])
            .first { $0.component == .buzzer }?.status, .failing)
        // One sounder that works is enough, and a sounder the box can't tell about claims nothing.
        XCTAssertEqual(SystemsCheck.wontRing(status, fitted: [.buzzer, .siren], absent: []), status.wontRing)
        XCTAssertEqual(SystemsCheck.wontRing(status, fitted: [.buzzer], absent: []), status.wontRing)
        XCTAssertNil(SystemsCheck.silence(faults: [:], fitted: [.buzzer], absent: [.siren]))
    }

    func testTestAlarmWithNothingThatCanSoundFailsAndSaysSo() throws {
        let conf = dir + "/silent.conf"
        write(conf, "[gpio]\nbuzzer_enabled = false\n[siren]\nenabled = false\n[ring]\nenabled = false\n")
        let r = runProgram([TestBinary.anchorAlert.path, "test-alarm", "--config", conf])
        XCTAssertEqual(r.code, 1, r.out + r.err)
        XCTAssertTrue(r.out.contains("Alarm: nothing can sound, the box can't ring: no buzzer is fitted and no siren is fitted"), r.out)
    }

    func testCheckCommandAgainstARunningAndAStoppedBox() throws {
        let box = try MiniBox(directory: dir)
        box.fixes(east: 0)
        let r = runProgram([applianceBinary, "check", "--runtime-dir", dir, "--journal", dir, "--config", "/dev/null"])
        XCTAssertEqual(r.code, 0, r.out + r.err)
        XCTAssertTrue(r.out.contains("Ok        Is the box answering?"), r.out)
        let json = try JSON.parse(runProgram([applianceBinary, "check", "--json", "--runtime-dir", dir, "--journal", dir]).out)
        XCTAssertEqual(json["rows"]?.array?.count, SystemsCheck.Component.allCases.count)
        box.writer.remove()
        let gone = runProgram([applianceBinary, "check", "--runtime-dir", dir, "--journal", dir, "--config", "/dev/null"])
        XCTAssertEqual(gone.code, 1)
        XCTAssertTrue(gone.out.contains("Failing   Is the box answering?"), gone.out)
        XCTAssertTrue(gone.out.contains("Unknown   Is the GPS reading fresh?"), gone.out)
    }
}
