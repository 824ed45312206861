@testable import Appliance
import Drivers
import WatchCore
import XCTest

/// A default the configuration and a driver or the watch both hold must be one value: the box
/// runs with what `Configuration` says, while the drivers' and the watch's own defaults are what
/// their tests, the demo and the docs read.
final class ConfigurationDefaultsTests: XCTestCase {
    func testTheGPSKeysDefaultToTheDriversDefaults() {
        let config = Configuration()
        let driver = GPSDSettings()
        XCTAssertEqual(config.gps.gpsd.host, driver.host)
        XCTAssertEqual(Int(config.gps.gpsd.port), Int(driver.port))
        XCTAssertEqual(config.gps.gpsd.clockTolerance.seconds, driver.clockTolerance.seconds)
        XCTAssertEqual(config.gps.gpsd.reportsStoppedAfter.seconds, driver.reportsStoppedAfter.seconds)
    }

    /// The file's watch.radius takes what the watch takes from a skipper, no more, no less.
    func testTheRadiusKeyTakesTheWatchsRange() throws {
        let key = try XCTUnwrap(ConfigurationKey.all.first { $0.fullName == "watch.radius" })
        guard case .number(let range, _) = key.kind else { return XCTFail("watch.radius is a number") }
        XCTAssertEqual(range, WatchSettings().radiusRange)
    }

}
