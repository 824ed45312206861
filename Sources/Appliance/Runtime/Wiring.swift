import Drivers
import Journal
import Posix
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
    /// A value no line can be is the configuration's problem (`Configuration.parse` says it, with
    /// the file's others): that line keeps its default here.
    func gpio(realSwitch: Bool) -> (buzzer: GPIOBuzzer?, controls: GPIOControls?) {
        var (settings, _) = GPIOSettings.from(
            chip: config.gpioChip, buzzer: config.buzzerLine, armSwitch: config.armSwitchLine, button: config.buttonLine,
            debounce: config.debounce, longPress: config.longPress, veryLongPress: config.veryLongPress,
            buzzerFitted: config.buzzerEnabled, switchFitted: config.switchEnabled && realSwitch,
            buttonFitted: config.buttonEnabled)
        settings.armContact = config.armContact == "open" ? .open : .closed
        let buzzer = settings.fitted.contains(.buzzer) ? GPIOBuzzer(settings: settings) : nil
        let controls = settings.fitted.contains(.armSwitch) || settings.fitted.contains(.button)
            ? GPIOControls(settings: settings, chips: GPIOChips(pullUp: config.gpioPullUp)) : nil
        return (buzzer, controls)
    }

    /// The LED ring, if fitted: a missing SPI device is its `.ledRing` fault, retried.
    func ring() -> LEDRing? {
        config.ringEnabled ? LEDRing(settings: config.ringSettings, device: config.spiRingSettings, start: now) : nil
    }

    /// The siren, if fitted: a missing sound device is its `.siren` fault, retried.
    func siren() -> ALSASiren? {
        guard config.sirenEnabled else { return nil }
        return ALSASiren(settings: config.sirenSettings, now: now)
    }
}

extension LEDRing: BoxObserver {}

extension Wiring {
    /// Every device of the box, and the faults of those that could not be had.
    struct Devices {
        var sources: [Pollable] = []
        var gpio: (buzzer: GPIOBuzzer?, controls: GPIOControls?)
        var ring: LEDRing?
        var siren: ALSASiren?
        /// Raised once the box runs: a bad configuration, a missing GPS, a line not to be had.
        var faults: [Fault] = []
        var simulatedSwitch: Bool

        func fitted(gpsd: Bool) -> Set<SystemsCheck.Component> {
            Surfaces.fitted(gpsd: gpsd, buzzer: gpio.buzzer != nil, switchAndButton: gpio.controls != nil && !simulatedSwitch,
                            ring: ring != nil, siren: siren != nil)
        }

        /// Outputs to a safe state on a clean stop: the buzzer line low, the siren silent.
        func shutdown() {
            gpio.buzzer?.shutdown()
            gpio.controls?.shutdown()
            siren?.stopAll()
        }
    }

    func devices(simulate: String?, speed: Double, realSwitch: Bool, problems: [String]) -> Devices {
        var d = Devices(gpio: gpio(realSwitch: realSwitch), ring: ring(), siren: siren(),
                        faults: Configuration.fault(for: problems).map { [$0] } ?? [], simulatedSwitch: !realSwitch)
        switch gps(simulate: simulate, speed: speed) {
        case .success(let gps): d.sources.append(gps)
        case .failure(let f):
            Console.error(f.message)
            d.faults.append(f)
        }
        let outputs: [Pollable?] = [d.gpio.controls, d.gpio.buzzer, d.ring, d.siren]
        d.sources += outputs.compactMap { $0 }
        return d
    }

    /// The journal, opened and recovered (it never refuses: a missing or damaged one is
    /// recovered or started afresh, and that is a fault the box announces), its writes and syncs
    /// on its own thread.
    func journal() -> (log: JournalLog, recovery: Journal.Recovery) {
        let opened = Journal.open(directory: config.journalDirectory, limits: journalLimits(),
                                  fresh: .fresh(radius: config.watchSettings.radius),
                                  at: Stamp(monotonic: now, wall: WallTime(seconds: WallClock.seconds())))
        return (JournalLog(journal: opened.journal, wall: WallClock.seconds), opened.recovery)
    }

    /// The configured limits, with one test-only override: `ANCHOR_ALERT_TEST_SEGMENT_BYTES`
    /// lowers the segment size below the configuration's 64 KiB floor, and the journal's size to
    /// two such segments, so the block-level power cuts (scripts/power-cut.py) see segments
    /// fill, rotate and be deleted within a few dozen decisions. The box's unit and package
    /// never set it; when set, the box says so.
    func journalLimits() -> JournalLimits {
        var limits = config.journalLimits
        guard let text = Process.environment("ANCHOR_ALERT_TEST_SEGMENT_BYTES") else { return limits }
        guard let bytes = Int(text), (512...JournalConstants.defaultSegmentBytes).contains(bytes) else {
            Console.error("Journal: ANCHOR_ALERT_TEST_SEGMENT_BYTES=\(text) ignored (512 to \(JournalConstants.defaultSegmentBytes))")
            return limits
        }
        Console.error("Journal: test segments of \(bytes) bytes, two kept (ANCHOR_ALERT_TEST_SEGMENT_BYTES)")
        limits.segmentBytes = bytes
        limits.totalBytes = 2 * bytes
        return limits.sanitized
    }

    func box(_ devices: Devices, log: JournalLog) -> Box {
        let box = Box(watch: Watch(settings: config.watchSettings), sources: devices.sources,
                      annunciator: Annunciator(buzzer: devices.gpio.buzzer, siren: devices.siren, book: DesignedSounds()),
                      log: log, wall: WallClock.seconds)
        log.pace = { [unowned box] in box.trackPace }
        return box
    }
}
