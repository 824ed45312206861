import Drivers
import WatchCore

/// What `run` attaches to the boat's network, each only when its section enables it. None is
/// on the path from a fix to the buzzer: each is an observer told after the box has acted,
/// and a source whose descriptors join the one poll; none can stop or delay the box.
enum NetworkOutputs {
    static func attach(to runtime: BoxRuntime, config: Configuration, now: Instant) {
        guard config.nmea.enabled else { return }
        var settings = config.nmea
        let t = settings.talker.utf8
        if t.count != 2 || !t.allSatisfy({ (0x41...0x5A).contains($0) }) {
            Console.error("NMEA: the talker must be two capital letters, not \"\(settings.talker)\"; using II")
            settings.talker = "II"
        }
        let nmea = NMEAOutput(settings: settings, wall: SystemClock.wall, now: now)
        runtime.extraSources.append(nmea)
        runtime.box.observers.append(nmea)
        runtime.extraRows.append { [nmea.row] }
        runtime.onShutdown.append { nmea.close() }
        Console.out("NMEA: \(nmea.row.answer)")
    }
}
