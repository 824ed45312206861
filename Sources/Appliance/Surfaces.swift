import WatchCore

/// What `run` attaches so other processes can talk to the box: the Systems Check monitor, the
/// status snapshot and the control socket, all in `runtime.directory`. None of them can stop
/// the box: one that can't start is said on stderr and the box watches without it.
enum Surfaces {
    /// Returns the snapshot writer, whose snapshot the network outputs publish.
    @discardableResult
    static func attach(to runtime: BoxRuntime, config: Configuration, fitted: Set<SystemsCheck.Component>) -> SnapshotWriter {
        let monitor = SystemsMonitor(probe: SystemsProbe(journalDirectory: config.journalDirectory))
        monitor.activeFaults = { [unowned box = runtime.box] in box.watch.faults }
        runtime.extraSources.append(monitor)
        let snapshot = SnapshotWriter(directory: config.runtimeDirectory, interval: .seconds(config.statusInterval),
                                      fitted: fitted)
        if let error = snapshot.lastError {
            Console.error("Status: can't write in \(config.runtimeDirectory): \(error); MQTT and NMEA still tell the status")
        }
        // The monitor's own array when nothing joins it: the snapshot's change key then
        // compares one buffer with itself, not row by row.
        snapshot.localRows = { [unowned runtime] in
            runtime.extraRows.isEmpty ? monitor.rows : monitor.rows + runtime.extraRows.flatMap { $0() }
        }
        snapshot.absent = absent(config: config)
        runtime.box.observers.append(snapshot)
        // A clean stop removes it: readers say "not running" at once, not "not answering".
        runtime.onShutdown.append { _ in snapshot.remove() }
        do {
            let server = try ControlServer(directory: config.runtimeDirectory)
            runtime.extraSources.append(server)
            runtime.onShutdown.append { _ in server.close() }
        } catch {
            Console.error("Control socket: can't listen in \(config.runtimeDirectory): \(error)")
        }
        return snapshot
    }

    static func absent(config: Configuration) -> Set<SystemsCheck.Component> {
        var set: Set<SystemsCheck.Component> = []
        if !config.sirenEnabled { set.insert(.siren) }
        if !config.ringEnabled { set.insert(.ledRing) }
        if !config.buzzerEnabled { set.insert(.buzzer) }
        if !config.switchEnabled { set.insert(.armSwitch) }
        if !config.buttonEnabled { set.insert(.button) }
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
