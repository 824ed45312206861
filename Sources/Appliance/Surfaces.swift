import WatchCore

/// The parts other processes talk to the box through: the Systems Check monitor, the status
/// snapshot and the control socket, all in `runtime.directory`. None of them can stop the box:
/// one that can't start is said on stderr and the box watches without it.
enum Surfaces {
    /// The status snapshot, whose status MQTT publishes too.
    /// `clock` is the loop's: its turn's wall time is the one the snapshot and the checks tell.
    static func snapshot(config: Configuration, fitted: Set<SystemsCheck.Component>, clock: LoopClock) -> SnapshotWriter {
        let snapshot = SnapshotWriter(directory: config.runtime.directory, interval: .seconds(config.runtime.statusInterval),
                                      fitted: fitted, absent: absent(config: config), wall: { clock.wall })
        if let error = snapshot.lastError {
            Console.error("Status: can't write in \(config.runtime.directory): \(error); MQTT and NMEA still tell the status")
        }
        return snapshot
    }

    static func parts(config: Configuration, snapshot: SnapshotWriter, clock: LoopClock, probe: (any SystemsProbing)? = nil) -> [Part] {
        let monitor = SystemsMonitor(probe: probe ?? SystemsProbe(journalDirectory: config.journal.directory, wall: { clock.wall }))
        do {
            let server = try ControlServer(directory: config.runtime.directory)
            return [monitor, snapshot, server]
        } catch {
            Console.error("Control socket: can't listen in \(config.runtime.directory): \(error)")
            return [monitor, snapshot]
        }
    }

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
