@testable import Appliance
import Drivers
import Journal
import NMEA0183
import LightsAndSounds
import WatchCore
import Foundation
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

    /// Each section's defaults are its driver's own: a default Configuration hands every driver
    /// exactly the settings the driver would take by itself, so no default is written twice.
    func testEachSectionDefaultsToItsDriversSettings() {
        let config = Configuration()
        XCTAssertEqual(config.gps.gpsd, GPSDSettings())
        XCTAssertEqual(config.journal.limits.sanitized, JournalLimits())
        XCTAssertEqual(config.journal.directory, JournalConstants.defaultDirectory)
        // The lines are text in the file: the default text names the driver's default lines.
        let gpio = config.gpio.settings()
        XCTAssertEqual(gpio.problems, [])
        XCTAssertEqual(gpio.settings, GPIOSettings())
        // The renderer's, with the watch's snooze and a box that can sound.
        XCTAssertEqual(config.ringSettings, RingSettings())
        let wiring = config.ring.wiring, driver = SPIRingSettings()
        XCTAssertEqual(wiring.device, driver.device)
        XCTAssertEqual(wiring.type, driver.type)
        XCTAssertEqual(wiring.order ?? wiring.type.defaultOrder, driver.order ?? driver.type.defaultOrder)
        XCTAssertEqual(wiring.clockHz, driver.clockHz)
        XCTAssertEqual(config.siren.settings, SirenSettings())
    }

    /// The network sections' defaults are the alert stream's, and what else reads MQTT's
    /// (`fleet`) and the runtime section's (the snapshot writer, the control client) takes them
    /// from the section.
    func testTheNetworkAndRuntimeDefaultsAreTheirUsersDefaults() {
        let config = Configuration()
        let stream = AlertStream()
        XCTAssertEqual(config.nmea.talker, stream.talker)
        XCTAssertEqual(config.nmea.repeatEvery, stream.repeatEvery.seconds)
        XCTAssertTrue(FleetCommand.help.contains("--port N             default \(config.mqtt.port)\n"), FleetCommand.help)
        XCTAssertTrue(FleetCommand.help.contains("(mqtt.prefix, default \(config.mqtt.prefix))"), FleetCommand.help)
        XCTAssertEqual(SnapshotFile.defaultDirectory, config.runtime.directory)
        XCTAssertEqual(ControlClient.Options().directory, config.runtime.directory)
        let directory = temporaryDirectory("defaults")
        defer { removeTree(directory) }
        XCTAssertEqual(SnapshotWriter(directory: directory, fitted: []).interval, .seconds(config.runtime.statusInterval))
    }

    /// `test-alarm` sounds the siren `run` builds: one place turns the `[siren]` section into a
    /// siren (`Wiring.siren`), so the two can't disagree on its settings.
    func testOnlyWiringBuildsTheSirenFromTheConfiguration() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Appliance").standardized
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        let builders = try files.filter { try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8).contains("ALSASiren(") }
        XCTAssertEqual(builders, ["Runtime/Wiring.swift"])
    }
}
