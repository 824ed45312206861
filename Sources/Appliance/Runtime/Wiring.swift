import Posix
import Drivers
import Recordings
import Signals
import WatchCore

/// Builds the box's devices from the configuration. Each device that can't be had becomes a
/// named fault; the box watches with what it has.
struct Wiring {
    let config: Configuration
    let now: Instant

    func gps(simulate: String?, speed: Double) -> Result<Pollable, Fault> {
        if let simulate {
            switch simulate {
            case "hold": return .success(SimulatedGPS(.script(.hold), start: now, speed: speed))
            case "swing": return .success(SimulatedGPS(.script(.swing), start: now, speed: speed))
            case "drag": return .success(SimulatedGPS(.script(.drag), start: now, speed: speed))
            case "demo": return .success(SimulatedGPS(.script(.demo), start: now, speed: speed))
            default:
                do {
                    let log = try LogReader.read(bytes: try Files.read(simulate))
                    return .success(SimulatedGPS(.recording(log.readings), start: now, speed: speed))
                } catch {
                    return .failure(Fault(.gpsd, "GPS: can't read the simulated log \(simulate): \(error)"))
                }
            }
        }
        if config.gpsSource == "simulated" {
            return .success(SimulatedGPS(.script(.hold), start: now, speed: speed))
        }
        var settings = GPSDSettings(host: config.gpsdHost, port: UInt16(clamping: config.gpsdPort))
        settings.reportsStoppedAfter = .seconds(config.reportsStoppedAfter)
        settings.clockTolerance = .seconds(config.clockTolerance)
        return .success(GPSDClient(settings: settings, now: now))
    }

    /// The buzzer, the arm switch and the button, each only if fitted. A line that can't be had
    /// is a fault its driver raises (and retries); the others keep working.
    func gpio(realSwitch: Bool) -> (buzzer: GPIOBuzzer?, controls: GPIOControls?, problems: [String]) {
        var (settings, problems) = GPIOSettings.from(
            chip: config.gpioChip, buzzer: config.buzzerLine, armSwitch: config.armSwitchLine, button: config.buttonLine,
            debounce: config.debounce, longPress: config.longPress, veryLongPress: config.veryLongPress,
            buzzerFitted: config.buzzerEnabled, switchFitted: config.switchEnabled && realSwitch,
            buttonFitted: config.buttonEnabled)
        settings.armContact = config.armContact == "open" ? .open : .closed
        let buzzer = settings.fitted.contains(.buzzer) ? GPIOBuzzer(settings: settings) : nil
        let controls = settings.fitted.contains(.armSwitch) || settings.fitted.contains(.button)
            ? GPIOControls(settings: settings, chips: GPIOChips(pullUp: config.gpioPullUp)) : nil
        return (buzzer, controls, problems)
    }

    /// The LED ring, if fitted: a missing SPI device is its `.ledRing` fault, retried.
    func ring() -> LEDRing? {
        config.ringEnabled ? LEDRing(settings: config.ringSettings, device: config.spiRingSettings, start: now) : nil
    }

    /// The siren, if fitted: a missing sound device is its `.siren` fault, retried.
    func siren() -> ALSASiren? {
        guard config.sirenEnabled else { return nil }
        var s = SirenSettings()
        s.device = config.sirenDevice
        s.volume = config.sirenVolume
        return ALSASiren(settings: s, now: now)
    }
}

extension LEDRing: BoxObserver {}
