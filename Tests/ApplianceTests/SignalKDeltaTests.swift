@testable import Appliance
import WatchCore
import XCTest

/// The Signal K deltas' values, each against the specification's enumerations as written in
/// Docs/network.md (alarmState, alarmMethodEnum); the end-to-end check against a server's way
/// of reading them is scripts/network/signalk_client.py.
final class SignalKDeltaTests: XCTestCase {
    let now = Instant(seconds: 1_000)

    func status(_ alarm: AlarmState, verdict: PositionVerdict = .dragging, anchor: Coordinate? = Coordinate(latitude: 43.2, longitude: 5.3),
                faults: [Fault] = [], sounding: Bool = false) -> WatchStatus {
        WatchStatus(verdict: verdict, alarm: alarm, anchor: anchor, radius: 40, distance: anchor == nil ? nil : 62,
                    readingAge: .seconds(1), accuracy: 3, wontRing: "", faults: faults, faultSounding: sounding)
    }

    func testTheAlarmAsANotification() {
        let ringing = SignalKDelta.anchor(status(.ringing(episode: 3)), now: now)
        XCTAssertEqual(ringing, .init(state: "alarm", method: ["visual", "sound"], message: "Dragging: 62 m from anchor (alert radius 40 m)"))
        let snoozed = SignalKDelta.anchor(status(.snoozed(until: now + .seconds(300), episode: 3)), now: now)
        XCTAssertEqual(snoozed, .init(state: "alarm", method: ["visual"], message: "Snoozed: 62 m from anchor (alert radius 40 m)"))
        XCTAssertEqual(SignalKDelta.anchor(status(.armed, verdict: .holding), now: now).state, "normal")
        XCTAssertEqual(SignalKDelta.anchor(status(.armed, verdict: .holding), now: now).method, [])
    }

    func testTheGPSFaultAsANotification() {
        let lost = Fault(.gpsLost, "GPS: no usable GPS reading for 1:00, can't judge a drag")
        XCTAssertEqual(SignalKDelta.gnss(status(.armed, faults: [lost], sounding: true)),
                       .init(state: "warn", method: ["visual", "sound"], message: lost.message))
        XCTAssertEqual(SignalKDelta.gnss(status(.armed, faults: [lost], sounding: false)).method, ["visual"])
        // A fault that is not the GPS's is not the GPS notification.
        XCTAssertEqual(SignalKDelta.gnss(status(.armed, faults: [Fault(.buzzer, "Buzzer: not answering")])).state, "normal")
    }

    func testNoAnchorIsNullAndTheLineIsOneLine() {
        let line = SignalKDelta.line(status(.off, verdict: .noAnchor, anchor: nil), now: now, wall: 1_700_000_000.5, notifications: true)
        XCTAssertTrue(line.hasSuffix("}\n"))
        XCTAssertEqual(line.filter { $0 == "\n" }.count, 1)
        XCTAssertTrue(line.contains(#"{"path":"navigation.anchor.position","value":null}"#), line)
        XCTAssertTrue(line.contains(#"{"path":"navigation.anchor.maxRadius","value":null}"#), line)
        XCTAssertTrue(line.contains(#""timestamp":"2023-11-14T22:13:20.500Z""#), line)
        XCTAssertTrue(line.hasPrefix(#"{"context":"vessels.self","updates":[{"source":{"label":"anchor-alert","type":"signalk"}"#), line)
        let marked = SignalKDelta.line(status(.armed), now: now, wall: 0, notifications: false)
        XCTAssertTrue(marked.contains(#"{"path":"navigation.anchor.position","value":{"latitude":43.2,"longitude":5.3}}"#), marked)
        XCTAssertTrue(marked.contains(#"{"path":"navigation.anchor.currentRadius","value":62}"#), marked)
        XCTAssertFalse(marked.contains("notifications."), marked)
    }

    func testTimestamps() {
        XCTAssertEqual(SignalKDelta.timestamp(0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(SignalKDelta.timestamp(951_782_400.999), "2000-02-29T00:00:00.999Z")
    }
}
