@testable import Appliance
import Journal
import WatchCore
import XCTest

final class ControlProtocolTests: XCTestCase {
    func parse(_ s: String) -> (String?, Result<Decision, ControlProtocol.RequestError>) {
        let (id, r) = ControlProtocol.parse(Array(s.utf8))
        return (id, r)
    }

    func testEveryDecisionRoundTripsThroughItsRequestLine() {
        let decisions: [Decision] = [
            .mark(.here), .mark(.offset(bearing: 225, distance: 40)),
            .mark(.at(Coordinate(latitude: 54.3413, longitude: 13.5065))),
            .setRadius(45), .snooze(episode: 7), .release,
        ]
        for d in decisions {
            let line = ControlProtocol.request(id: "c1", d)
            let (id, r) = parse(line)
            XCTAssertEqual(id, "c1")
            XCTAssertEqual(try r.get(), d, line)
        }
    }

    func testMalformedRequestsAreRefusedWithAReason() {
        let cases: [(String, String)] = [
            ("not json", "malformed"),
            ("[1,2]", "malformed"),
            ("{\"decision\":\"snooze\"}", "malformed"),
            ("{\"decision\":\"snooze\",\"episode\":1.5}", "malformed"),
            ("{\"decision\":\"radius\"}", "malformed"),
            ("{\"decision\":\"mark\",\"lat\":91,\"lon\":0}", "malformed"),
            ("{\"decision\":\"mark\",\"bearing_deg\":400,\"distance_m\":10}", "malformed"),
            ("{\"decision\":\"mark\",\"lat\":54}", "malformed"),
            ("{\"decision\":\"launch\"}", "unknown_decision"),
            ("{\"decision\":\"arm\"}", "not_allowed"),
            ("{\"id\":\"" + String(repeating: "x", count: 65) + "\",\"decision\":\"release\"}", "malformed"),
            ("{\"decision\":" + String(repeating: "[", count: 40) + "}", "malformed"),
            ("{\"decision\":\"release\",\"x\":\"" + String(repeating: "y", count: 1100) + "\"}", "too_long"),
        ]
        for (line, code) in cases {
            guard case .failure(let e) = parse(line).1 else { XCTFail("accepted: \(line.prefix(60))"); continue }
            XCTAssertEqual(e.code, code, String(line.prefix(60)))
            XCTAssertFalse(e.says.isEmpty)
        }
        if case .failure(let e) = parse("{\"decision\":\"arm\"}").1 {
            XCTAssertEqual(e.says, "Can't arm from here: use the switch on the box")
        }
    }

    func testRepliesCarryTheBoxsWords() {
        // A real receipt: a watch rings, and a snooze of its episode is accepted.
        var (w, now) = Statuses.watch { w, now in
            Statuses.fix(&w, &now, east: 0, count: 5)
            _ = w.handle(.decision(.mark(.here)), at: now)
            _ = w.handle(.armSwitch(on: true), at: now)
            Statuses.fix(&w, &now, east: 80, count: 30)
        }
        guard case .accepted(let receipt, _) = ControlOutcome(w.handle(.decision(.snooze(episode: 1)), at: now)) else {
            return XCTFail("the snooze should be accepted")
        }
        let r = ControlReply.receipt(receipt, saved: true, now: now).json(id: "c9")
        XCTAssertEqual(r["id"]?.string, "c9")
        XCTAssertEqual(r["result"]?.string, "receipt")
        XCTAssertEqual(r["says"]?.string, "Snoozed for 5:00")
        XCTAssertEqual(r["episode"]?.int, 1)
        let unsaved = ControlReply.receipt(receipt, saved: false, now: now).json(id: "c9")
        XCTAssertEqual(unsaved["saved"]?.bool, false)
        XCTAssertTrue(unsaved["says"]?.string?.contains("not saved") ?? false)
        let refused = ControlReply.refused(.snooze(episode: 1), .wrongEpisode).json(id: nil)
        XCTAssertEqual(refused["says"]?.string, "Can't snooze: that alarm was already answered")
        XCTAssertNil(refused["id"])
    }

    func testOutcomeFindsTheAnswerAmongTheWatchsActions() {
        var w = Watch(settings: .scripted)
        XCTAssertEqual(ControlOutcome(w.handle(.decision(.snooze(episode: 1)), at: Instant(seconds: 1))),
                       .refused(.snooze(episode: 1), .notRinging))
        if case .accepted(let r, let chirp) = ControlOutcome(w.handle(.decision(.release), at: Instant(seconds: 2))) {
            XCTAssertEqual(r.decision, .release)
            XCTAssertEqual(chirp, .release)
        } else {
            XCTFail("release with the alarm off is accepted")
        }
        XCTAssertEqual(ControlOutcome([.chirp(.acknowledge)]), .nothing)
    }
}
