import WatchCore

/// The parts other processes on the box talk to it through, in `runtime.directory`: the status
/// snapshot and the control socket, with the Systems Check monitor whose rows the snapshot
/// carries. None of them can stop the box: one that can't start is said on stderr and the box
/// watches without it. (The commands that read them are the box's surfaces: `status`, `watch`,
/// the glance.)
enum RuntimeDirectory {
    /// The status snapshot, whose status MQTT publishes too.
    /// `clock` is the loop's: its turn's wall time is the one the snapshot and the checks tell.
    static func snapshot(config: Configuration, fitted: Set<SystemsCheck.Component>, clock: LoopClock) -> SnapshotWriter {
        let snapshot = SnapshotWriter(directory: config.runtime.directory, interval: .seconds(config.runtime.statusInterval),
                                      fitted: fitted, absent: Wiring.absent(config: config), wall: { clock.wall })
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
}
