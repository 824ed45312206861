import Glibc
import LightsAndSounds
import WatchCore
import XCTest

/// Measures and prints what a ringing frame costs (render and encode), the only case that runs
/// 25 times a second. Asserts nothing about time: a slow machine is not a failure.
final class RingCostTests: XCTestCase {
    func testMeasureARingingFrame() {
        var settings = RingSettings()
        settings.pixelCount = 24
        let renderer = RingRenderer(settings: settings)
        let status = Fixture.status(.dragging, .ringing(episode: 1))
        let encoder = WS2812Encoder()
        let frames = 5_000
        var bytes = 0
        let start = now()
        for k in 0..<frames {
            let t = Instant(nanoseconds: Int64(k) * 40_000_000)
            bytes &+= encoder.encode(renderer.frame(status, at: t, calmSince: .zero)).count
        }
        let perFrame = (now() - start) / frames
        XCTAssertEqual(bytes, frames * (24 * 9 + 90))
        print("ring cost: \(perFrame / 1000) us a ringing frame of 24 WS2812 pixels (render + encode), debug build; 25 a second while ringing")
    }

    func now() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
    }
}
