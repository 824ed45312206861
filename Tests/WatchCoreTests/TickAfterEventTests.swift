import WatchCore
import XCTest

/// `Box.serve` sends the watch a tick only when no event of the turn already took it to the
/// turn's instant: every event ends with the watch's reassessment at its instant, which is all a
/// tick is. This holds the watch to that: a tick at the instant of the event before it changes
/// nothing (no action, the same status, the same next deadline), through a night that holds,
/// loses the GPS, drags, rings, is snoozed, rings again, has its radius changed and is released.
final class TickAfterEventTests: XCTestCase {
    /// Equal statuses, the swing estimate's numbers to a micrometer: `SwingEstimator` sums its
    /// cells in a Dictionary's order, which differs between two copies of one watch fed alike,
    /// so their last bits differ even with no tick at all (seen: a twin fed the same events).
    private func same(_ a: WatchStatus, _ b: WatchStatus, _ what: String) {
        var x = a, y = b
        x.swing = nil; y.swing = nil; x.suggestedRadius = nil; y.suggestedRadius = nil
        x.swingOffer = nil; y.swingOffer = nil
        XCTAssertEqual(x, y, what)
        XCTAssertEqual(a.swingOffer?.says, b.swingOffer?.says, what)
        XCTAssertEqual(a.suggestedRadius?.value ?? -1, b.suggestedRadius?.value ?? -1, accuracy: 1e-6, what)
        XCTAssertEqual(a.swing == nil, b.swing == nil, what)
        guard let s = a.swing, let t = b.swing else { return }
        XCTAssertEqual(Geodesy.distance(s.centre, t.centre).value, 0, accuracy: 1e-6, what)
        for (u, v) in [(s.uncertainty, t.uncertainty), (s.swingRadius, t.swingRadius), (s.farthest, t.farthest), (s.spread, t.spread)] {
            XCTAssertEqual(u.value, v.value, accuracy: 1e-6, what)
        }
        XCTAssertEqual(s.arc, t.arc, accuracy: 1e-6, what)
        XCTAssertEqual([s.settled, s.moving, s.stable], [t.settled, t.moving, t.stable], what)
    }

    func testATickAtTheInstantOfTheLastEventChangesNothing() {
        for defaults in [true, false] {
            var ticked = Harness()
            if defaults { ticked.watch = Watch(settings: WatchSettings()) }
            var plain = ticked
            var kinds = Set<PositionVerdict.Kind>()
            var rang = 0
            var noise: UInt64 = 0x2545_F491_4F6C_DD1D
            func wobble() -> Double {
                noise ^= noise << 13; noise ^= noise >> 7; noise ^= noise << 17
                return Double(noise % 2001) / 1000 - 1
            }
            func step(_ event: Event) {
                let a = ticked.watch.handle(event, at: ticked.now) + ticked.watch.handle(.tick, at: ticked.now)
                let b = plain.watch.handle(event, at: plain.now)
                XCTAssertEqual(a, b, "\(event) at \(ticked.now)")
                same(ticked.watch.status(at: ticked.now), plain.watch.status(at: plain.now), "\(event) at \(ticked.now)")
                XCTAssertEqual(ticked.watch.nextDeadline(after: ticked.now), plain.watch.nextDeadline(after: plain.now))
                kinds.insert(plain.watch.verdict.kind)
                if case .ringing = plain.watch.alarm { rang += 1 }
            }
            /// Time passes for both alike: ticks at every deadline the watch asks for.
            func wait(_ seconds: Double) {
                let end = ticked.now + .seconds(seconds)
                while let next = plain.watch.nextDeadline(after: plain.now), next <= end {
                    ticked.now = next; plain.now = next
                    XCTAssertEqual(ticked.watch.handle(.tick, at: next), plain.watch.handle(.tick, at: next))
                }
                ticked.now = end; plain.now = end
            }
            func fixes(_ seconds: Double, rate: Double = 10, _ place: (Double) -> (Double, Double)) {
                for i in 0..<Int(seconds * rate) {
                    let (e, n) = place(Double(i) / rate)
                    step(.reading(plain.reading(east: e + wobble(), north: n + wobble(), accuracy: 3 + wobble())))
                    wait(1 / rate)
                }
            }
            fixes(10) { _ in (0, 0) }
            step(.decision(.mark(.here)))
            step(.armSwitch(on: true))
            fixes(90) { t in (5 * sin(t / 20), 5 * cos(t / 20)) }
            wait(90)  // no readings: can't judge, then the GPS fault
            fixes(30) { _ in (2, 2) }
            fixes(200) { t in (0.5 * t, 0) }  // drags at 0.5 m/s until it rings
            if case .ringing(let episode) = plain.watch.alarm { step(.decision(.snooze(episode: episode))) }
            step(.button(.short))
            fixes(30, rate: 1) { t in (100 + t, 0) }
            wait(400)  // the snooze ends: rings again
            fixes(20, rate: 1) { _ in (120, 0) }
            step(.decision(.setRadius(Meters(200))))
            fixes(20) { _ in (120, 0) }
            step(.faultRaised(Fault(.journal, "Journal: can't save to storage; watching from memory")))
            step(.faultCleared(.journal))
            step(.armSwitch(on: false))
            step(.decision(.release))
            fixes(5) { _ in (120, 0) }
            // The night went through what the rule is about.
            XCTAssertTrue(kinds.isSuperset(of: [.holding, .dragging, .cantJudge, .noAnchor]), "\(kinds)")
            XCTAssertGreaterThan(rang, 0)
        }
    }
}
