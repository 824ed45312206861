@testable import Appliance
import WatchCore
import XCTest

/// What Home Assistant reads as unsafe, and which entities a box announces. The end-to-end
/// check against Home Assistant's templates, schemas and a real instance is
/// scripts/network/ha_discovery.py.
final class HomeAssistantDiscoveryTests: XCTestCase {
    let now = Instant(seconds: 1_000)

    func unsafe(_ alarm: AlarmState, _ verdict: PositionVerdict) -> Bool? {
        let s = WatchStatus(verdict: verdict, alarm: alarm, anchor: Coordinate(latitude: 43.2, longitude: 5.3), radius: 40,
                            distance: 62, readingAge: .seconds(1), accuracy: 3, wontRing: "", faults: [], faultSounding: false)
        return HomeAssistantDiscovery.attributes(s, now: now)["unsafe"]?.bool
    }

    func testSnoozedWhileNotHoldingIsUnsafe() {
        let snoozed = AlarmState.snoozed(until: now + .seconds(300), episode: 2)
        XCTAssertEqual(unsafe(.ringing(episode: 2), .holding), true, "a latched alarm rings on after the boat came back")
        XCTAssertEqual(unsafe(snoozed, .dragging), true)
        XCTAssertEqual(unsafe(snoozed, .checking(progress: 0.5)), true)
        XCTAssertEqual(unsafe(snoozed, .cantJudge(.noFix)), true)
        XCTAssertEqual(unsafe(snoozed, .holding), false)
        XCTAssertEqual(unsafe(.off, .dragging), true, "judged dragging is unsafe with the alarm off too")
        XCTAssertEqual(unsafe(.armed, .holding), false)
        XCTAssertEqual(unsafe(.armed, .checking(progress: 0.5)), false)
    }

    func testControlsOnlyWithCommands() {
        func configs(_ commands: Bool) -> [String: Int] {
            let d = HomeAssistantDiscovery(base: "anchor-alert/b", boxName: "b", acceptCommands: commands, radiusRange: 5...500)
            return Dictionary(uniqueKeysWithValues: d.configs().map { ($0.0.split(separator: "/")[3].description, $0.1.count) })
        }
        XCTAssertEqual(configs(true).filter { $0.value > 0 }.keys.sorted(), ["alarm", "boat", "distance", "faults", "position", "radius", "snooze"])
        // Without commands the controls are announced empty: Home Assistant removes them.
        XCTAssertEqual(configs(false).filter { $0.value == 0 }.keys.sorted(), ["radius", "snooze"])
    }

    func testTheIdentifierIsASCII() {
        let d = HomeAssistantDiscovery(base: "x", boxName: "Lady Jane-ø2", acceptCommands: false, radiusRange: 5...500)
        XCTAssertEqual(d.id, "anchor_alert_Lady_Jane__2")
    }
}
