import Drivers
import WatchCore

/// Everything the box reads from its configuration file, with defaults. A key the file doesn't
/// set keeps its default; a key the file gets wrong keeps its default too, and the problem is
/// reported (and raised as the configuration fault by `run`). A bad file never stops the alarm.
struct Configuration: Sendable {
    static let defaultPath = "/etc/anchor-alert/anchor-alert.conf"

    var watchSettings = WatchSettings()

    var gpsSource = "gpsd"
    // The gpsd driver's defaults, written once (GPSDSettings).
    /// An address (or localhost), not a name: the box never looks a name up (it could block).
    var gpsdHost = GPSDSettings().host
    var gpsdPort = Int(GPSDSettings().port)
    /// Seconds without any report from the receiver before it is called gone.
    var reportsStoppedAfter = GPSDSettings().reportsStoppedAfter.seconds
    /// Seconds between GPS time and the system clock before the clock is doubted.
    var clockTolerance = GPSDSettings().clockTolerance.seconds

    var journalDirectory = "/var/lib/anchor-alert"
    var journalSegmentBytes = 1_048_576
    var journalMaxBytes = 33_554_432
    var journalMinFreeBytes = 8_388_608
    var journalCalmTrackInterval = 10.0
    var journalCalmFlushAfter = 300.0
    var journalAttentionFlushAfter = 10.0
    var journalRetryAfter = 30.0
    var runtimeDirectory = "/run/anchor-alert"
    /// Seconds between status snapshots while nothing changes (a change is written at once).
    var statusInterval = 30.0

    var gpioChip = "gpiochip0"
    var buzzerLine = "GPIO17"
    var armSwitchLine = "GPIO27"
    var buttonLine = "GPIO22"
    var buzzerEnabled = true
    var switchEnabled = true
    var buttonEnabled = true
    var debounce = 0.05
    var longPress = 1.5
    var veryLongPress = 5.0
    /// "closed": ARM closes the contact to ground. "open" is fail-safe: a broken wire arms.
    var armContact = "closed"
    var gpioPullUp = true

    var ringEnabled = true
    var ringType = "ws2812"
    var ringDevice = "/dev/spidev0.0"
    var ringPixels = 12
    var ringOrder = "grb"
    var nightBrightness = 0.08
    var workingBrightness = 0.25
    var ringTopPixel = 0
    var ringClockwise = true
    /// 0: the pixel type's own clock (2.4 MHz for WS2812, 4 MHz for APA102).
    var ringSPIHz = 0
    var calmAfter = 900.0

    var sirenEnabled = true
    var sirenDevice = "default"
    var sirenVolume = 0.8

    /// `[nmea]`: alerts to chartplotters (Docs/network.md). Off unless enabled.
    var nmea = NMEASettings()
    /// `[mqtt]`: the box on an MQTT broker (Docs/network.md). Off unless enabled.
    var mqtt = MQTTSettings()
    /// `[signalk]`: Signal K deltas for a Signal K server (Docs/network.md). Off unless enabled.
    var signalK = SignalKSettings()

    var bowOffset = 1.0
    var boatLength = 10.0

}

/// The result of reading a configuration file: the configuration (defaults where the file
/// failed) and every problem found, each naming its line and key.
struct LoadedConfiguration {
    var configuration: Configuration
    var problems: [String]
    /// Where the problems are: nil when the file was read cleanly (or absent at the default path).
    var path: String?
}
