import Drivers
import Journal
import LightsAndSounds
import WatchCore

/// Everything the box reads from its configuration file, with defaults. A key the file doesn't
/// set keeps its default; a key the file gets wrong keeps its default too, and the problem is
/// reported (and raised as the configuration fault by `run`). A bad file never stops the alarm.
///
/// One settings value per section of the file, each key written into it by key path
/// (`ConfigurationKey.all`). Where a driver has a settings type, the section holds it (or
/// derives its defaults from it), so each default is written once, by the driver.
struct Configuration: Sendable {
    static let defaultPath = "/etc/anchor-alert/anchor-alert.conf"

    /// `[watch]`
    var watchSettings = WatchSettings()
    /// `[gps]`
    var gps = GPSSection()
    /// `[journal]`
    var journal = JournalSection()
    /// `[runtime]`
    var runtime = RuntimeSection()
    /// `[gpio]`
    var gpio = GPIOSection()
    /// `[ring]`
    var ring = RingSection()
    /// `[siren]`
    var siren = SirenSection()
    /// `[nmea]`: alerts to chartplotters (Docs/network.md). Off unless enabled.
    var nmea = NMEASettings()
    /// `[mqtt]`: the box on an MQTT broker (Docs/network.md). Off unless enabled.
    var mqtt = MQTTSettings()
    /// `[signalk]`: Signal K deltas for a Signal K server (Docs/network.md). Off unless enabled.
    var signalK = SignalKSettings()
    /// `[boat]`
    var boat = BoatSection()
}

/// The `[gps]` section: where fixes come from, and the gpsd driver's own settings.
struct GPSSection: Sendable, Hashable {
    /// "gpsd", or "simulated" (the demo's boat).
    var source = "gpsd"
    /// `gps.host` is an address (or localhost), not a name: the box never looks a name up (it
    /// could block).
    var gpsd = GPSDSettings()
}

/// The `[journal]` section: where the journal lives and its limits (the journal's own type).
struct JournalSection: Sendable, Hashable {
    var directory = JournalConstants.defaultDirectory
    /// As the file sets them; the journal is given `limits.sanitized`.
    var limits = JournalLimits()
}

/// The `[runtime]` section: the status snapshot and the control socket.
struct RuntimeSection: Sendable, Hashable {
    var directory = "/run/anchor-alert"
    /// Seconds between status snapshots while nothing changes (a change is written at once).
    var statusInterval = 30.0
}

/// The `[gpio]` section, as the file names the lines (text: a line is looked up by name when the
/// box starts). The timings' defaults are the drivers' (`Debouncer`, `PressClassifier`).
struct GPIOSection: Sendable, Hashable {
    var chip = "gpiochip0"
    var buzzer = "GPIO17"
    var armSwitch = "GPIO27"
    var button = "GPIO22"
    var buzzerEnabled = true
    var switchEnabled = true
    var buttonEnabled = true
    var debounce = Debouncer.defaultSettle.seconds
    var longPress = PressClassifier.Thresholds().long.seconds
    var veryLongPress = PressClassifier.Thresholds().veryLong.seconds
    /// "closed": ARM closes the contact to ground. "open" is fail-safe: a broken wire arms.
    var armContact = GPIOSettings().armContact.rawValue
    var pullUp = GPIOSettings.defaultPullUp

    /// The drivers' settings from this section, and the values no line can be (each keeps its
    /// default). `realSwitch` false: the arm switch is not driven (a simulated run).
    func settings(realSwitch: Bool = true) -> (settings: GPIOSettings, problems: [String]) {
        var (s, problems) = GPIOSettings.from(
            chip: chip, buzzer: buzzer, armSwitch: armSwitch, button: button,
            debounce: debounce, longPress: longPress, veryLongPress: veryLongPress,
            buzzerFitted: buzzerEnabled, switchFitted: switchEnabled && realSwitch, buttonFitted: buttonEnabled)
        s.armContact = GPIOSettings.ArmContact(rawValue: armContact) ?? s.armContact
        return (s, problems)
    }
}

/// The `[ring]` section: the renderer's settings (`RingSettings`) and the SPI wiring's, as the
/// file names them (text for the type and the colour order; 0 Hz for the type's own clock).
struct RingSection: Sendable, Hashable {
    var enabled = true
    /// The renderer's settings; `snoozeLength` and `canSound` come from other sections (`Configuration.ringSettings`).
    var look = RingSettings()
    var type = SPIRingSettings().type.rawValue
    var device = SPIRingSettings().device
    /// Written even for the type's own order, as the file's default shows it.
    var order = SPIRingSettings().type.defaultOrder.rawValue
    /// 0: the pixel type's own clock (2.4 MHz for WS2812, 4 MHz for APA102).
    var spiHz = 0

    /// The ring's wiring.
    var wiring: SPIRingSettings {
        var s = SPIRingSettings()
        s.device = device
        s.type = PixelType(parsing: type) ?? s.type
        s.order = ColourOrder(parsing: order)
        if spiHz > 0 { s.clockHz = spiHz }
        return s
    }
}

/// The `[siren]` section: whether a speaker is fitted, and the siren's own settings.
struct SirenSection: Sendable, Hashable {
    var enabled = true
    var settings = SirenSettings()
}

/// The `[boat]` section.
struct BoatSection: Sendable, Hashable {
    /// From the GPS antenna to the bow roller, metres.
    var bowOffset = 1.0
    var length = 10.0
}

extension Configuration {
    /// The renderer's settings: the ring section's, with the snooze's length and whether
    /// anything can sound.
    var ringSettings: RingSettings {
        var s = ring.look
        s.snoozeLength = watchSettings.snooze
        s.canSound = canSound
        return s
    }

    /// Whether anything fitted can sound the alarm (a buzzer or a siren).
    var canSound: Bool { gpio.buzzerEnabled || siren.enabled }
}

/// The result of reading a configuration file: the configuration (defaults where the file
/// failed) and every problem found, each naming its line and key.
struct LoadedConfiguration {
    var configuration: Configuration
    var problems: [String]
    /// Where the problems are: nil when the file was read cleanly (or absent at the default path).
    var path: String?
}
