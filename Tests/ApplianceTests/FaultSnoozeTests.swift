#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Drivers
import Journal
import NMEA0183
import LightsAndSounds
import WatchCore
import XCTest

/// A sounding fault is snoozed for a while, with a receipt, from every place that may snooze:
/// the button, an NMEA plotter's ACN and Home Assistant's snooze button, as `anchor-alert
/// snooze` does (issue 26, "A sounding fault can be answered"). The real box, its real journal,
/// the real NMEA output with a TCP client and a real mosquitto.
final class FaultSnoozeTests: XCTestCase {
    static let unplugged = Fault(.receiver, "GPS: receiver unplugged")

    /// A box marked and armed, its GPS unit unplugged: the fault sounds.
    func faultSounding() -> ReceiptTests.Rig {
        let rig = ReceiptTests.Rig()
        rig.armed()
        rig.box.handle(.faultRaised(Self.unplugged), now: rig.now)
        XCTAssertTrue(rig.box.watch.faultSounding)
        rig.receipts.removeAll()
        return rig
    }

    /// The fault sounds again once the snooze's length has gone by, the fault still there.
    func assertSoundsAgainAfterTheSnooze(_ rig: ReceiptTests.Rig, file: StaticString = #filePath, line: UInt = #line) {
        let snooze = rig.box.watch.settings.snooze
        rig.now = rig.now + snooze - .seconds(1)
        rig.box.handle(.tick, now: rig.now)
        XCTAssertFalse(rig.box.watch.faultSounding, "quiet until the snooze ends", file: file, line: line)
        rig.now = rig.now + .seconds(1)
        rig.box.handle(.tick, now: rig.now)
        XCTAssertTrue(rig.box.watch.faultSounding, "the fault, still there, sounds again after its snooze", file: file, line: line)
    }

    func testAButtonPressSnoozesASoundingFaultWithAReceiptAndItSoundsAgain() {
        let rig = faultSounding()
        rig.box.handle(.button(.short), now: rig.now)
        rig.settle()
        XCTAssertFalse(rig.box.watch.faultSounding, "the press silenced the fault sound")
        XCTAssertEqual(rig.receipts.count, 1, "a receipt for the press: \(rig.receipts)")
        if let (receipt, saved) = rig.receipts.first {
            XCTAssertTrue(receipt.silencesFault)
            XCTAssertTrue(saved)
            XCTAssertEqual(Words.receipt(receipt, now: rig.now),
                           "Fault sound snoozed for \(Words.countdown(rig.box.watch.settings.snooze)): it sounds again if the fault is still there")
        }
        XCTAssertEqual(rig.sounds.played.last, SoundDesign.chirp(.snooze), "the snooze chirp, as for a snoozed alarm")
        XCTAssertEqual(rig.box.watch.alarm, .armed, "no alarm was answered")
        XCTAssertNotNil(rig.box.watch.faults[.receiver], "the fault stays shown")
        assertSoundsAgainAfterTheSnooze(rig)
    }

    func testAFaultSoundingWhileTheAlarmIsSnoozedIsSnoozedWithoutTouchingTheAlarm() {
        let rig = ReceiptTests.Rig()
        rig.ringing()
        rig.box.handle(.decision(.snooze(episode: rig.box.watch.alarm.episode!)), now: rig.now)
        rig.settle()
        let snoozed = rig.box.watch.alarm
        XCTAssertEqual(snoozed.kind, .snoozed)
        rig.box.handle(.faultRaised(Self.unplugged), now: rig.now)
        XCTAssertTrue(rig.box.watch.faultSounding)
        rig.receipts.removeAll()
        // A snooze naming the alarm already answered is refused, as with no fault.
        var outcome: DecisionOutcome?
        rig.box.handle(.decision(.snooze(episode: snoozed.episode!)), now: rig.now) { outcome = $0 }
        XCTAssertEqual(outcome, .refused(.wrongEpisode))
        XCTAssertTrue(rig.box.watch.faultSounding)
        // The button snoozes the fault sound.
        rig.box.handle(.button(.short), now: rig.now)
        rig.settle()
        XCTAssertFalse(rig.box.watch.faultSounding, "the press snoozed the fault sound")
        XCTAssertEqual(rig.receipts.map { $0.0.silencesFault }, [true], "a fault snooze's receipt, not the alarm's")
        XCTAssertEqual(rig.box.watch.alarm, snoozed, "the alarm's snooze is untouched")
    }

    /// The ALF states of the GPS unit's alert (identifier 10002, instance 3), in order.
    func gpsUnitStates(_ text: String) -> [String] {
        text.split(separator: "\r\n").compactMap { line -> String? in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard line.hasPrefix("$IIALF"), f.count > 10, f[2] == "1", f[9] == "10002", f[10] == "3" else { return nil }
            return String(f[7])
        }
    }

    func testANMEAAcknowledgeOfASoundingGPSAlertSnoozesTheFault() throws {
        let rig = ReceiptTests.Rig()
        rig.armed()
        var s = NMEASettings()
        s.enabled = true
        s.listen = "127.0.0.1"
        s.port = 0
        s.acknowledgeSnoozes = true
        let nmea = NMEAOutput(settings: s, wall: { 1_700_000_000 }, now: rig.now)
        let plotter = try AnnouncedAfterReceiptTests.Plotter(port: try XCTUnwrap(nmea.port))
        func turn(_ ms: Int32 = 20) {
            var fds = nmea.pollRequests().map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), ms)
            nmea.serve(fds.filter { $0.revents != 0 }.map { PollDescriptor(fd: $0.fd, wanted: $0.events, happened: $0.revents) }, now: rig.now, box: rig.box)
        }
        for _ in 0..<50 where nmea.clientCount == 0 { turn() }
        XCTAssertEqual(nmea.clientCount, 1)
        rig.box.announcers = [nmea]
        rig.box.handle(.faultRaised(Self.unplugged), now: rig.now)
        XCTAssertTrue(rig.box.watch.faultSounding)
        rig.receipts.removeAll()
        rig.box.refresh(now: rig.now)
        turn()
        plotter.read(waiting: 1000)
        XCTAssertEqual(gpsUnitStates(plotter.text).last, "V", "the GPS unit's alert is out, unacknowledged: \(plotter.text)")

        let acn = Sentence.encode("ECACN", ["", "", "10002", "3", "A", "C"])
        XCTAssertEqual(acn.withCString { send(plotter.fd, $0, strlen($0), 0) }, acn.utf8.count)
        for _ in 0..<50 where rig.box.watch.faultSounding { turn() }
        rig.settle()
        XCTAssertFalse(rig.box.watch.faultSounding, "the plotter's acknowledge snoozed the fault sound")
        XCTAssertEqual(rig.receipts.map { $0.0.silencesFault }, [true], "with a receipt")
        rig.box.refresh(now: rig.now)
        turn()
        plotter.read(waiting: 1000)
        XCTAssertEqual(gpsUnitStates(plotter.text).last, "A", "the alert now reads acknowledged: \(plotter.text)")
        XCTAssertFalse(plotter.text.contains("$IIARC"), "not refused: \(plotter.text)")
        assertSoundsAgainAfterTheSnooze(rig)
    }

    func testANMEAAcknowledgeOfAGPSAlertWithNothingSoundingIsStillRefused() throws {
        let rig = ReceiptTests.Rig()
        rig.armed()
        rig.box.handle(.faultRaised(Self.unplugged), now: rig.now)
        rig.box.handle(.decision(.snooze(episode: 0)), now: rig.now)
        rig.settle()
        XCTAssertFalse(rig.box.watch.faultSounding)
        var s = NMEASettings()
        s.enabled = true
        s.listen = "127.0.0.1"
        s.port = 0
        s.acknowledgeSnoozes = true
        let nmea = NMEAOutput(settings: s, wall: { 1_700_000_000 }, now: rig.now)
        let plotter = try AnnouncedAfterReceiptTests.Plotter(port: try XCTUnwrap(nmea.port))
        func turn(_ ms: Int32 = 20) {
            var fds = nmea.pollRequests().map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), ms)
            nmea.serve(fds.filter { $0.revents != 0 }.map { PollDescriptor(fd: $0.fd, wanted: $0.events, happened: $0.revents) }, now: rig.now, box: rig.box)
        }
        for _ in 0..<50 where nmea.clientCount == 0 { turn() }
        let acn = Sentence.encode("ECACN", ["", "", "10002", "3", "A", "C"])
        _ = acn.withCString { send(plotter.fd, $0, strlen($0), 0) }
        for _ in 0..<50 where !plotter.text.contains("ARC") { turn(); plotter.read(waiting: 20) }
        XCTAssertTrue(plotter.text.contains("ARC,"), "nothing sounds: refused with ARC: \(plotter.text)")
    }

    func testHomeAssistantsSnoozeButtonSnoozesASoundingFault() throws {
        let directory = temporaryDirectory("fault-snooze-mqtt")
        defer { removeTree(directory) }
        let broker = try NetworkOutageTimingTests.Broker(directory: directory)
        defer { withExtendedLifetime(broker) {} }
        let rig = faultSounding()
        var m = MQTTSettings()
        m.enabled = true
        m.port = broker.port
        m.acceptCommands = true
        let mqtt = MQTTOutput(settings: m, boxName: "test", interval: .seconds(30), now: rig.now,
                              snapshot: SnapshotWriter(directory: directory, fitted: [.journal]))
        rig.box.announcers = [mqtt]
        let phone = try XCTUnwrap(MQTTClient(id: "phone"))
        var heard: [(topic: String, text: String)] = []
        phone.onMessage = { topic, payload in heard.append((topic, String(decoding: payload, as: UTF8.self))) }
        XCTAssertNil(phone.connect(host: "127.0.0.1", port: broker.port, keepalive: 30))
        func pump(until done: () -> Bool) {
            let end = MonotonicClock.now() + .seconds(10)
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
        rig.box.refresh(now: rig.now)
        // A press sent before the box's subscription reaches the broker is lost (QoS 1 keeps no
        // message for a subscriber yet to come), as a press in Home Assistant would be: press
        // again until the box answers. The first answer is the one that counts.
        let end = MonotonicClock.now() + .seconds(10)
        while !heard.contains(where: { $0.topic == "anchor-alert/test/reply" }) && MonotonicClock.now() < end {
            XCTAssertTrue(phone.publish("anchor-alert/test/snooze", Array("snooze".utf8), qos: 1, retain: false))
            let turn = MonotonicClock.now() + .milliseconds(300)
            pump(until: { heard.contains { $0.topic == "anchor-alert/test/reply" } || MonotonicClock.now() > turn })
        }
        let reply = heard.first { $0.topic == "anchor-alert/test/reply" }?.text ?? ""
        XCTAssertTrue(reply.contains("\"result\":\"receipt\""), "a receipt, not a refusal: \(reply)")
        XCTAssertTrue(reply.contains("Fault sound snoozed for"), reply)
        XCTAssertFalse(rig.box.watch.faultSounding, "Home Assistant's button snoozed the fault sound")
        assertSoundsAgainAfterTheSnooze(rig)
    }
}
