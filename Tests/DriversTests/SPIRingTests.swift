import Drivers
import Glibc
import LightsAndSounds
import LightsAndSoundsTestSupport
@testable import WatchCore
import XCTest

/// A plain file stands in for /dev/spidevX.Y: the driver writes each frame with one write, and
/// the test decodes the bytes back to the colours the renderer drew.
final class SPIRingTests: XCTestCase {
    func status(_ verdict: PositionVerdict, _ alarm: AlarmState, faults: [Fault] = []) -> WatchStatus {
        WatchStatus(verdict: verdict, alarm: alarm, anchor: Coordinate(latitude: 43, longitude: 5), radius: 30,
                    distance: nil, readingAge: nil, accuracy: nil, wontRing: "", faults: faults, faultSounding: false)
    }

    func standIn() throws -> String {
        let dir = try makeTemporaryDirectory("spiring")
        addTeardownBlock { removeDirectory(dir) }
        let path = dir + "/spidev0.0"
        try writeText(path, "")
        return path
    }

    func testWS2812FramesDecodeBackToTheRenderersColours() throws {
        let path = try standIn()
        let encoder = WS2812Encoder(order: .grb)
        let ring = try SPIRing(path: path, encoder: encoder)
        let renderer = RingRenderer(settings: { var s = RingSettings(); s.pixelCount = 12; return s }())
        let t0 = Instant(seconds: 100)
        let frames = [
            renderer.frame(status(.holding, .armed), at: t0, calmSince: t0),
            renderer.frame(status(.checking(progress: 0.5), .off), at: t0, calmSince: t0),
            renderer.frame(status(.dragging, .ringing(episode: 1)), at: t0, calmSince: t0),
        ]
        for f in frames { try ring.show(f) }
        let bytes = try readBytes(path)
        let frameBytes = 12 * WS2812Encoder.bytesPerPixel + encoder.resetBytes
        // One write per frame, each whole: the file is exactly three frames long.
        XCTAssertEqual(bytes.count, 3 * frameBytes)
        for (k, f) in frames.enumerated() {
            let chunk = Array(bytes[(k * frameBytes)..<((k + 1) * frameBytes)])
            XCTAssertEqual(try encoder.decode(chunk), f, "frame \(k)")
        }
        XCTAssertEqual(ring.framesWritten, 3)
    }

    func testAPA102FramesDecodeBack() throws {
        let path = try standIn()
        let encoder = APA102Encoder(order: .bgr)
        let ring = try SPIRing(path: path, encoder: encoder)
        let frame = (0..<16).map { RGB(UInt8($0), UInt8(2 * $0), UInt8(255 - $0)) }
        try ring.show(frame)
        let decoded = try encoder.decode(try readBytes(path), count: 16)
        XCTAssertEqual(decoded.pixels, frame)
    }

    func testLEDRingSendsOnlyChangedFramesAndNamesAMissingDevice() throws {
        let dir = try makeTemporaryDirectory("ledring")
        addTeardownBlock { removeDirectory(dir) }
        let path = dir + "/spidev0.0"
        var device = SPIRingSettings()
        device.device = path
        let t0 = Instant(seconds: 50)
        let ring = LEDRing(settings: RingSettings(), device: device, start: t0)

        // The device is missing: a named fault, and the box goes on (no throw, no crash).
        let events = ring.update(status(.holding, .armed), at: t0)
        guard case .faultRaised(let fault)? = events.first else { return XCTFail("no fault in \(events)") }
        XCTAssertEqual(fault.kind, .ledRing)
        XCTAssertEqual(fault.message, "LED ring: \(path) is missing, the ring is dark")
        // Raised once, not once per frame.
        XCTAssertEqual(ring.update(status(.checking(progress: 0.2), .armed), at: t0 + .seconds(1)), [])
        XCTAssertEqual(ring.nextDeadline(after: t0 + .seconds(1)), t0 + .seconds(31))

        // The device appears: the retry sends the frame and clears the fault.
        try writeText(path, "")
        XCTAssertEqual(ring.update(status(.holding, .armed), at: t0 + .seconds(31)), [.faultCleared(.ledRing)])
        let frameBytes = RingSettings().pixelCount * 9 + WS2812Encoder().resetBytes
        XCTAssertEqual(try readBytes(path).count, frameBytes)
        // Nothing changed: nothing is written.
        for s in 32..<40 { XCTAssertEqual(ring.update(status(.holding, .armed), at: t0 + .seconds(Double(s))), []) }
        XCTAssertEqual(try readBytes(path).count, frameBytes)
        // A change is one more frame.
        _ = ring.update(status(.holding, .off), at: t0 + .seconds(41))
        XCTAssertEqual(try readBytes(path).count, 2 * frameBytes)
    }

    func testAsAnObserverTheRingHandsItsFaultToTheLoop() throws {
        var device = SPIRingSettings()
        device.device = "/nonexistent/spidev0.0"
        let t0 = Instant(seconds: 5)
        let ring = LEDRing(settings: RingSettings(), device: device, start: t0)
        XCTAssertNil(ring.nextDeadline())
        ring.show(status(.holding, .armed), now: t0)
        XCTAssertEqual(ring.nextDeadline(), .zero)
        XCTAssertTrue(ring.pollRequests().isEmpty)
        let events = ring.service(ready: [], now: t0)
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(ring.service(ready: [], now: t0), [])
        XCTAssertNil(ring.nextDeadline())
        XCTAssertEqual(ring.nextDeadline(now: t0), t0 + LEDRing.retryAfter)
    }

    func testSPIDeviceErrorsAreNamedInTheProductsWords() {
        XCTAssertThrowsError(try SPIRing(path: "/nonexistent/spidev9.9", encoder: WS2812Encoder())) { error in
            XCTAssertEqual((error as? SPIRingError)?.fault.kind, .ledRing)
            XCTAssertEqual("\(error)", "LED ring: /nonexistent/spidev9.9 is missing, the ring is dark")
        }
        // A character device that is not spidev refuses the SPI settings.
        XCTAssertThrowsError(try SPIRing(path: "/dev/null", encoder: WS2812Encoder())) { error in
            guard case .configure(_, let setting, _)? = error as? SPIRingError else { return XCTFail("\(error)") }
            XCTAssertEqual(setting, "SPI mode")
        }
    }
}
