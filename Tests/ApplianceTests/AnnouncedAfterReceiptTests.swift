#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Drivers
import Journal
import NMEA0183
import WatchCore
import XCTest

/// The network hears of a decision only with its receipt: the real journal on its writer
/// thread, on a card made slow or failing, and the real NMEA output with a TCP client reading
/// it and the MQTT output's payloads for the broker. The alarm itself is told at once.
final class AnnouncedAfterReceiptTests: XCTestCase {
    /// Every status the announcers were shown, and the receipts, in one order.
    final class Told: BoxObserver {
        var events: [String] = []
        var last: WatchStatus?
        func show(_ status: WatchStatus, now: Instant) {
            if last?.alarm.kind != status.alarm.kind { events.append("told \(status.alarm.kind)") }
            if last?.faults.contains(where: { $0.kind == .journal }) != true, status.faults.contains(where: { $0.kind == .journal }) {
                events.append("told journal fault")
            }
            last = status
        }
        func nextDeadline(now: Instant) -> Instant? { nil }
    }

    final class Plotter {
        let fd: Int32
        var text = ""
        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let addr = try XCTUnwrap(InetSocket.address("127.0.0.1", port: port))
            XCTAssertEqual(InetSocket.withSockaddr(addr) { connect(fd, $0, $1) }, 0)
        }
        deinit { close(fd) }
        /// What has arrived, waiting up to `ms` for the first bytes.
        @discardableResult
        func read(waiting ms: Int32 = 0) -> String {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, ms)
            var buf = [UInt8](repeating: 0, count: 65536)
            var got = ""
            while true {
                let n = recv(fd, &buf, buf.count, Int32(MSG_DONTWAIT))
                if n <= 0 { break }
                got += String(decoding: buf[0..<n], as: UTF8.self)
            }
            text += got
            return got
        }
        /// The ALF first sentences of the anchor alert, by state letter.
        var anchorStates: [String] {
            text.split(separator: "\r\n").compactMap { line -> String? in
                let f = line.split(separator: ",", omittingEmptySubsequences: false)
                guard line.hasPrefix("$IIALF"), f.count > 10, f[2] == "1", f[9] == "10001" else { return nil }
                return String(f[7])
            }
        }
    }

    struct Rig {
        let rig = ReceiptTests.Rig()
        let told = Told()
        let nmea: NMEAOutput
        let mqtt: MQTTOutput
        let plotter: Plotter
        let directory: String

        init() throws {
            var s = NMEASettings()
            s.enabled = true
            s.listen = "127.0.0.1"
            s.port = 0
            nmea = NMEAOutput(settings: s, wall: { 1_700_000_000 }, now: rig.now)
            plotter = try Plotter(port: try XCTUnwrap(nmea.port))
            for _ in 0..<50 where nmea.clientCount == 0 {
                var fds = nmea.pollRequests().map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
                _ = poll(&fds, nfds_t(fds.count), 20)
                _ = nmea.service(ready: fds.filter { $0.revents != 0 }.map { PollDescriptor(fd: $0.fd, wanted: $0.events, happened: $0.revents) }, now: rig.now)
            }
            XCTAssertEqual(nmea.clientCount, 1)
            directory = temporaryDirectory("announce")
            var m = MQTTSettings()
            m.enabled = true
            m.port = 1  // nothing listens: the payloads wait for the broker, which is what the test reads
            mqtt = MQTTOutput(settings: m, boxName: "test", interval: .seconds(30), now: rig.now,
                              snapshot: SnapshotWriter(directory: directory, fitted: [.journal]))
            rig.box.announcers = [told, nmea, mqtt]
            rig.box.onReceipt = { [told, rig] r, saved, _ in
                rig.receipts.append((r, saved))
                told.events.append("receipt \(r.decision.name) saved \(saved)")
            }
        }

        /// The alarm's state in the MQTT `alarm` payload the broker is to hold.
        var mqttAlarm: String? {
            guard let bytes = mqtt.latest["anchor-alert/test/alarm"], let json = try? JSON.parse(bytes: bytes) else { return nil }
            return json["state"]?.string
        }
    }

    /// A snooze on a card whose sync takes 1 s: the sound stops at once, the receipt comes
    /// after the sync, and the network is told "silenced" only after the receipt.
    func testASnoozeIsAnnouncedOnlyAfterItsRecordIsSaved() throws {
        let t = try Rig()
        defer { removeTree(t.directory) }
        t.rig.armed()
        // The ring itself is told at once, even while the journal takes its time.
        t.rig.fs.syncDelay = .seconds(1)
        for _ in 0..<300 where t.rig.box.watch.alarm.kind != .ringing { t.rig.fixes(east: 90, count: 1) }
        XCTAssertEqual(t.rig.box.watch.alarm.kind, .ringing)
        XCTAssertEqual(t.told.last?.alarm.kind, .ringing, "ringing is told on the turn it starts")
        XCTAssertEqual(t.mqttAlarm, "ringing")
        t.plotter.read(waiting: 1000)
        XCTAssertEqual(t.plotter.anchorStates.last, "V", "the plotter hears the alarm at once: \(t.plotter.text)")
        t.rig.settle()

        t.told.events.removeAll()
        var outcome: DecisionOutcome?
        t.rig.box.handle(.decision(.snooze(episode: t.rig.box.watch.alarm.episode!)), now: t.rig.now) { outcome = $0 }
        XCTAssertEqual(t.rig.box.watch.alarm.kind, .snoozed, "the watch is snoozed at once")
        XCTAssertFalse(t.rig.box.buzzerAndSiren.isAlarmSounding, "the sound stops at once")
        XCTAssertNil(outcome)
        // While the record syncs: fixes come and go, and nothing on the network says silenced.
        t.rig.fixes(east: 90, count: 2)
        XCTAssertGreaterThan(t.rig.box.awaitingReceipts, 0, "the sync is still running (1 s)")
        t.plotter.read(waiting: 100)
        XCTAssertFalse(t.plotter.anchorStates.contains("S"), "no silenced ALF before the receipt: \(t.plotter.anchorStates)")
        XCTAssertEqual(t.told.last?.alarm.kind, .ringing)
        XCTAssertEqual(t.mqttAlarm, "ringing", "MQTT holds the alarm as ringing until the receipt")

        t.rig.settle()
        guard case .accepted(_, true)? = outcome else { return XCTFail("no saved receipt: \(String(describing: outcome))") }
        XCTAssertEqual(t.told.events, ["receipt snooze saved true", "told snoozed"])
        XCTAssertEqual(t.mqttAlarm, "snoozed")
        t.plotter.read(waiting: 1000)
        XCTAssertEqual(t.plotter.anchorStates.last, "S", "the silenced ALF follows the receipt: \(t.plotter.anchorStates)")
    }

    /// A snooze on a card whose syncs fail: the network hears the journal's warning, then that
    /// the alarm is silenced (it is: the sound stopped), never that it was saved.
    func testASnoozeNotSavedIsAnnouncedWithTheJournalWarning() throws {
        let t = try Rig()
        defer { removeTree(t.directory) }
        t.rig.ringing()
        t.plotter.read(waiting: 1000)
        t.told.events.removeAll()
        t.rig.fs.syncDelay = .milliseconds(200)
        t.rig.fs.failSyncs = true
        var outcome: DecisionOutcome?
        t.rig.box.handle(.decision(.snooze(episode: t.rig.box.watch.alarm.episode!)), now: t.rig.now) { outcome = $0 }
        t.plotter.read(waiting: 50)
        XCTAssertFalse(t.plotter.anchorStates.contains("S"))
        XCTAssertEqual(t.mqttAlarm, "ringing")
        t.rig.settle()
        guard case .accepted(_, false)? = outcome else { return XCTFail("expected not saved: \(String(describing: outcome))") }
        XCTAssertEqual(t.told.events, ["told journal fault", "receipt snooze saved false", "told snoozed"])
        t.plotter.read(waiting: 1000)
        let lines = t.plotter.text.split(separator: "\r\n")
        let warning = lines.firstIndex { $0.hasPrefix("$IIALF,2,1,") && $0.contains(",10003,1,") && $0.contains(",V,") }
        let silenced = lines.firstIndex { $0.hasPrefix("$IIALF,2,1,") && $0.contains(",10001,") && $0.contains(",S,") }
        XCTAssertNotNil(warning, "the journal's warning goes out: \(t.plotter.text)")
        XCTAssertNotNil(silenced)
        if let warning, let silenced { XCTAssertLessThan(warning, silenced, "the warning comes before the silenced alarm") }
        XCTAssertTrue(lines.contains { $0.hasPrefix("$IIALR,") && $0.contains(",005,A,V,Journal: ") },
                      "the legacy ALR carries the journal's words: \(lines.filter { $0.hasPrefix("$IIALR") })")
        guard let bytes = t.mqtt.latest["anchor-alert/test/faults"], let faults = try? JSON.parse(bytes: bytes) else {
            return XCTFail("no faults payload")
        }
        XCTAssertTrue(faults.text.contains("\"journal\""), "MQTT's faults carry the journal's: \(faults.text)")
        XCTAssertEqual(t.mqttAlarm, "snoozed")
    }

    /// On a real mosquitto: a snooze sent on the command topic, the card's sync taking 0.5 s.
    /// What a subscriber hears, in order: the receipt on the reply topic, then the alarm
    /// snoozed; never the alarm snoozed before the receipt.
    func testOnARealBrokerTheReceiptComesBeforeTheSnoozedAlarm() throws {
        let directory = temporaryDirectory("announce-mqtt")
        defer { removeTree(directory) }
        let broker = try NetworkOutageTimingTests.Broker(directory: directory)
        defer { withExtendedLifetime(broker) {} }
        let port = broker.port

        let rig = ReceiptTests.Rig()
        var m = MQTTSettings()
        m.enabled = true
        m.port = port
        m.acceptCommands = true
        let mqtt = MQTTOutput(settings: m, boxName: "test", interval: .seconds(30), now: rig.now,
                              snapshot: SnapshotWriter(directory: directory, fitted: [.journal]))
        rig.box.announcers = [mqtt]

        // The crew's phone: everything under the box's topics, in arrival order.
        let phone = try XCTUnwrap(MQTTClient(id: "phone"))
        var heard: [(topic: String, text: String, at: Instant)] = []
        phone.onMessage = { topic, payload in heard.append((topic, String(decoding: payload, as: UTF8.self), MonotonicClock.now())) }
        XCTAssertNil(phone.connect(host: "127.0.0.1", port: port, keepalive: 30))
        /// One turn for the box's MQTT output and the phone.
        func pump(until done: () -> Bool, limit: Double = 10) {
            let end = MonotonicClock.now() + .seconds(limit)
            while !done() && MonotonicClock.now() < end {
                var fds = mqtt.pollRequests().map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
                _ = poll(&fds, nfds_t(fds.count), 10)
                mqtt.serve(fds.filter { $0.revents != 0 }.map { PollDescriptor(fd: $0.fd, wanted: $0.events, happened: $0.revents) }, now: rig.now, box: rig.box)
                rig.box.takeCompletions(now: rig.now)
                _ = phone.run(forMilliseconds: 10)
            }
        }
        pump(until: { phone.connected && mqtt.connections > 0 })
        XCTAssertTrue(phone.subscribe("anchor-alert/test/#"))
        rig.ringing()
        func alarmState(_ text: String) -> String? { (try? JSON.parse(text))?["state"]?.string }
        pump(until: { heard.contains { $0.topic == "anchor-alert/test/alarm" && alarmState($0.text) == "ringing" } })
        XCTAssertTrue(heard.contains { $0.topic == "anchor-alert/test/alarm" && alarmState($0.text) == "ringing" }, "the phone hears the ring")

        rig.fs.syncDelay = .milliseconds(500)
        heard.removeAll()
        let sent = MonotonicClock.now()
        XCTAssertTrue(phone.publish("anchor-alert/test/command",
                                    Array("{\"id\":\"z1\",\"decision\":\"snooze\",\"episode\":\(rig.box.watch.alarm.episode!)}".utf8),
                                    qos: 1, retain: false))
        pump(until: { heard.contains { $0.topic == "anchor-alert/test/alarm" && alarmState($0.text) == "snoozed" } })
        let reply = heard.firstIndex { $0.topic == "anchor-alert/test/reply" && $0.text.contains("\"id\":\"z1\"") }
        let snoozed = heard.firstIndex { $0.topic == "anchor-alert/test/alarm" && alarmState($0.text) == "snoozed" }
        guard let reply, let snoozed else {
            return XCTFail("the phone heard no receipt or no snooze: \(heard.map { "\($0.topic) \($0.text.prefix(60))" })")
        }
        XCTAssertTrue(heard[reply].text.contains("\"result\":\"receipt\"") && heard[reply].text.contains("\"saved\":true"), heard[reply].text)
        XCTAssertLessThan(reply, snoozed, "the receipt comes before the alarm is announced snoozed")
        XCTAssertGreaterThanOrEqual((heard[snoozed].at - sent).seconds, 0.45, "the snoozed alarm waited for the 0.5 s sync")
        XCTAssertEqual(rig.box.watch.alarm.kind, .snoozed)
    }

    /// The rule itself: while a decision waits, what it changes is held and what it does not
    /// stays fresh; a ring is told at once and stays told.
    func testTheHeldStatusKeepsTheReadingFreshAndTellsARing() {
        let (holding, _) = Statuses.holding()
        var a = AnnouncedStatus()
        XCTAssertEqual(a.status(live: holding, waiting: false), holding)
        var later = holding
        later.radius = 45
        later.readingAge = .seconds(7)
        later.faults = [Fault(.gpsd, "GPS: gpsd is not answering")]
        var told = a.status(live: later, waiting: true)
        XCTAssertEqual(told.radius, holding.radius, "the new radius waits for its receipt")
        XCTAssertEqual(told.readingAge, .seconds(7))
        XCTAssertEqual(told.faults, later.faults, "a fault is no decision: told at once")
        var ringing = later
        ringing.alarm = .ringing(episode: 4)
        ringing.verdict = .dragging
        told = a.status(live: ringing, waiting: true)
        XCTAssertEqual(told.alarm, .ringing(episode: 4), "a ring is told at once")
        XCTAssertEqual(told.verdict, .dragging)
        var snoozed = ringing
        snoozed.alarm = .snoozed(until: Instant(seconds: 900), episode: 4)
        told = a.status(live: snoozed, waiting: true)
        XCTAssertEqual(told.alarm, .ringing(episode: 4), "a snooze waiting on its receipt leaves the ring told")
        XCTAssertEqual(a.status(live: snoozed, waiting: false), snoozed, "with the receipts in, the box as it is")
    }
}
