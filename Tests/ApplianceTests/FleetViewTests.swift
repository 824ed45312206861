@testable import Appliance
import Journal
@testable import WatchCore
import XCTest

final class FleetViewTests: XCTestCase {
    let wall = WallTime(seconds: 1_800_000_000)

    func payload(_ verdict: PositionVerdict, _ alarm: AlarmState, faults: [Fault] = [], at: WallTime) -> [UInt8] {
        let status = WatchStatus(verdict: verdict, alarm: alarm, anchor: Coordinate(latitude: 43.2, longitude: 5.3),
                                 radius: 40, distance: 12, readingAge: .seconds(1), accuracy: 3, wontRing: "",
                                 faults: faults, faultSounding: false)
        let s = StatusSnapshot(status: status, now: .zero, wall: at, writer: .init(bootID: "b", pid: 1, monotonic: 0),
                               validFor: .seconds(75), checks: [])
        return Array(s.json.text.utf8)
    }

    func testAlarmsFirstThenBoxesToLookAtThenCalmOnes() {
        var v = FleetView()
        v.take(topic: "anchor-alert/calm/status", payload: payload(.holding, .armed, at: wall), prefix: "anchor-alert")
        v.take(topic: "anchor-alert/aaa-fault/status",
               payload: payload(.holding, .armed, faults: [Fault(.gpsd, "GPS: gpsd is not running")], at: wall), prefix: "anchor-alert")
        v.take(topic: "anchor-alert/zz-ringing/status", payload: payload(.dragging, .ringing(episode: 2), at: wall), prefix: "anchor-alert")
        v.take(topic: "anchor-alert/quiet/status", payload: payload(.holding, .armed, at: wall - .seconds(600)), prefix: "anchor-alert")
        v.take(topic: "anchor-alert/gone/status", payload: payload(.holding, .armed, at: wall), prefix: "anchor-alert")
        v.take(topic: "anchor-alert/gone/online", payload: Array("offline".utf8), prefix: "anchor-alert")
        let now = wall + .seconds(3)
        XCTAssertEqual(v.sorted(now: now).map(\.name), ["zz-ringing", "aaa-fault", "gone", "quiet", "calm"])
        let lines = v.lines(now: now)
        XCTAssertEqual(lines[0], "Fleet: 5 boxes; 1 alarm, 3 to look at, 1 calm")
        XCTAssertEqual(lines[1], "zz-ringing  Dragging. Alarm. 12 m from anchor. 3 s ago")
        XCTAssertEqual(lines[2], "aaa-fault   Holding. Alarm on. 12 m from anchor. GPS: gpsd is not running. 3 s ago")
        XCTAssertEqual(lines[3], "gone        Offline: the box left the broker; last said Holding, 3 s ago")
        XCTAssertEqual(lines[4], "quiet       Not heard from since 10 min ago; last said Holding")
    }

    func testGarbageChangesNothingAndAnEmptyRetainedStatusForgetsTheBox() {
        var v = FleetView()
        v.take(topic: "anchor-alert/a/status", payload: payload(.holding, .armed, at: wall), prefix: "anchor-alert")
        XCTAssertNil(v.take(topic: "anchor-alert/a/status", payload: Array("{not json".utf8), prefix: "anchor-alert"))
        XCTAssertNotNil(v.boxes["a"]?.snapshot, "what was known stays")
        XCTAssertNil(v.take(topic: "elsewhere/a/status", payload: [], prefix: "anchor-alert"))
        XCTAssertNil(v.take(topic: "anchor-alert/a/b/status", payload: [], prefix: "anchor-alert"))
        v.take(topic: "anchor-alert/a/status", payload: [], prefix: "anchor-alert")
        XCTAssertNil(v.boxes["a"])
    }
}
