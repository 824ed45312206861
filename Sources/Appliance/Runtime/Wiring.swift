import Drivers
import Journal
import Posix
import Recordings
import LightsAndSounds
import WatchCore

/// Builds the running box from its configuration: the devices, the journal, and the one list
/// of parts (`parts`), in start order. Each device that can't be had becomes a named fault;
/// the box watches with what it has.
struct Wiring {
    let config: Configuration
    let now: Instant
    /// What the Systems Check reads of the machine: this one's (`SystemsProbe`) unless given.
    var probe: (any SystemsProbing)? = nil
    /// The loop's clock: the parts that tell wall time (the journal's stamps, the snapshot, the
    /// Systems Check's clock row, the network outputs, gpsd's clock check) read its turn's
    /// reading, never a clock of their own. `run` hands the same clock to `EventLoop`.
    var clock = LoopClock()

    func gps(simulate: String?, speed: Double) -> Result<Part, Fault> {
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
        if config.gps.source == "simulated" {
            return .success(SimulatedGPS(.script(.hold), start: now, speed: speed))
        }
        return .success(GPSDClient(settings: config.gps.gpsd, now: now, wallClock: { [clock] in clock.wall.seconds }))
    }

    /// The buzzer, the arm switch and the button, each only if fitted. A line that can't be had
    /// is a fault its driver raises (and retries); the others keep working.
    /// A value no line can be is the configuration's problem (`Configuration.parse` says it, with
    /// the file's others): that line keeps its default here.
    func gpio(realSwitch: Bool) -> (buzzer: GPIOBuzzer?, controls: GPIOControls?) {
        let settings = config.gpio.settings(realSwitch: realSwitch).settings
        let buzzer = settings.fitted.contains(.buzzer) ? GPIOBuzzer(settings: settings) : nil
        let controls = settings.fitted.contains(.armSwitch) || settings.fitted.contains(.button)
            ? GPIOControls(settings: settings, chips: GPIOChips(pullUp: config.gpio.pullUp)) : nil
        return (buzzer, controls)
    }

    /// The LED ring, if fitted: a missing SPI device is its `.ledRing` fault, retried.
    func ring() -> LEDRing? {
        config.ring.enabled ? LEDRing(settings: config.ringSettings, device: config.ring.wiring, start: now) : nil
    }

    /// The siren, if fitted: a missing sound device is its `.siren` fault, retried.
    func siren() -> ALSASiren? {
        guard config.siren.enabled else { return nil }
        return ALSASiren(settings: config.siren.settings, now: now)
    }
}

extension Wiring {
    /// The box's devices, and the faults of those that could not be had. Tests build their own
    /// (a recorded buzzer line, a scripted GPS) and hand them to `parts` like `run`'s.
    struct Devices {
        /// The drivers, in start order: the GPS, the buzzer, the controls, the ring, the siren.
        var drivers: [Part] = []
        /// What the buzzerAndSiren drives.
        var buzzer: BuzzerLine?
        var siren: SirenOutput?
        /// Raised once the box runs: a bad configuration, a missing GPS, a line not to be had.
        var faults: [Fault] = []
        /// The components whose drivers this run started, for the Systems Check.
        var fitted: Set<SystemsCheck.Component> = [.configuration, .journal]
    }

    func devices(simulate: String?, speed: Double, realSwitch: Bool, problems: [String]) -> Devices {
        var d = Devices(faults: Configuration.fault(for: problems).map { [$0] } ?? [])
        switch gps(simulate: simulate, speed: speed) {
        case .success(let gps): d.drivers.append(gps)
        case .failure(let f):
            Console.error(f.message)
            d.faults.append(f)
        }
        let gpio = gpio(realSwitch: realSwitch)
        let ring = ring(), siren = siren()
        let drivers: [Part?] = [gpio.buzzer, gpio.controls, ring, siren]
        d.drivers += drivers.compactMap { $0 }
        d.buzzer = gpio.buzzer
        d.siren = siren
        d.fitted = Wiring.fitted(gpsd: simulate == nil, buzzer: gpio.buzzer != nil,
                                   switchAndButton: gpio.controls != nil && realSwitch, ring: ring != nil, siren: siren != nil)
        return d
    }

    /// The journal, opened and recovered (it never refuses: a missing or damaged one is
    /// recovered or started afresh, and that is a fault the box announces), its writes and syncs
    /// on its own thread.
    func journal(fileSystem: any JournalFileSystem = PosixFileSystem()) -> (log: JournalLog, recovery: Journal.Recovery) {
        let opened = Journal.open(directory: config.journal.directory, limits: journalLimits(), fileSystem: fileSystem,
                                  fresh: .fresh(radius: config.watchSettings.radius),
                                  at: Stamp(monotonic: now, wall: clock.wall))
        return (JournalLog(journal: opened.journal, wall: { [clock] in clock.wall.seconds }), opened.recovery)
    }

    /// The configured limits, with one test-only override: `ANCHOR_ALERT_TEST_SEGMENT_BYTES`
    /// lowers the segment size below the configuration's 64 KiB floor, and the journal's size to
    /// two such segments, so the block-level power cuts (scripts/power-cut.py) see segments
    /// fill, rotate and be deleted within a few dozen decisions. The box's unit and package
    /// never set it; when set, the box says so.
    func journalLimits() -> JournalLimits {
        var limits = config.journal.limits.sanitized
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

    /// Every part of the running box, in start order: the journal first (stopped last, once the
    /// outputs are safe), the devices, the console, the Systems Check, the status snapshot and
    /// the control socket (`RuntimeDirectory`), the network outputs their sections enable
    /// (`NetworkOutputs`), systemd's status line and watchdog. `run` builds its box from this
    /// list and nothing else; so do the tests of the loop's timing, adding parts of their own.
    func parts(_ devices: Devices, journal: JournalLog, systemd: Systemd? = nil, cantSound: String? = nil) -> [Part] {
        var parts: [Part] = [journal]
        parts += devices.drivers
        // One sink for both streams (a test's pipe) is one part.
        if let sinks = Console.loop { parts += sinks.out === sinks.error ? [sinks.out] : [sinks.out, sinks.error] }
        parts.append(ConsoleLog(settings: config.watchSettings, fitted: devices.fitted, absent: Wiring.absent(config: config)))
        let snapshot = RuntimeDirectory.snapshot(config: config, fitted: devices.fitted, clock: clock)
        parts += RuntimeDirectory.parts(config: config, snapshot: snapshot, clock: clock, probe: probe)
        parts += NetworkOutputs.parts(config: config, snapshot: snapshot, clock: clock, now: now)
        if let systemd {
            parts.append(SystemdStatus(systemd, cantSound: cantSound))
            if let interval = systemd.watchdogInterval {
                parts.append(Watchdog(interval: interval, start: now, ping: { _ = try? systemd.pingWatchdog() }))
            }
        }
        return parts
    }

    /// The box over `parts`: the watch from the configuration, the buzzerAndSiren over the
    /// devices' buzzer and siren, the journal's pace read from the watch.
    func box(_ devices: Devices, journal: JournalLog, parts: [Part]) -> Box {
        let box = Box(watch: Watch(settings: config.watchSettings),
                      buzzerAndSiren: BuzzerAndSiren(buzzer: devices.buzzer, siren: devices.siren, book: DesignedSounds()),
                      log: journal, wall: { [clock] in clock.wall.seconds }, parts: parts)
        journal.pace = { [unowned box] in box.trackPace }
        return box
    }
}

extension Wiring {
    /// The Systems Check components the configuration turns off.
    static func absent(config: Configuration) -> Set<SystemsCheck.Component> {
        var set: Set<SystemsCheck.Component> = []
        if !config.siren.enabled { set.insert(.siren) }
        if !config.ring.enabled { set.insert(.ledRing) }
        if !config.gpio.buzzerEnabled { set.insert(.buzzer) }
        if !config.gpio.switchEnabled { set.insert(.armSwitch) }
        if !config.gpio.buttonEnabled { set.insert(.button) }
        return set
    }

    /// The components whose drivers this run actually started, so their Systems Check rows can
    /// say Yes while no fault is raised (each driver raises its fault when it fails). A part
    /// `run` did not start stays "can't tell", never Yes.
    static func fitted(gpsd: Bool, buzzer: Bool, switchAndButton: Bool, ring: Bool, siren: Bool) -> Set<SystemsCheck.Component> {
        // The journal is always there: its driver raises the journal fault when a write or a
        // sync fails, so no fault means every decision so far was synced.
        var set: Set<SystemsCheck.Component> = [.configuration, .journal]
        if gpsd { set.formUnion([.gpsd, .receiver]) }
        if buzzer { set.insert(.buzzer) }
        if switchAndButton { set.formUnion([.armSwitch, .button]) }
        if ring { set.insert(.ledRing) }
        if siren { set.insert(.siren) }
        return set
    }
}
