import Posix
import Drivers
import WatchCore

/// What `run` attaches to the boat's network, each only when its section enables it. None is
/// on the path from a fix to the buzzer: each is an announcer told after the box has acted
/// (a decision only once its receipt is in, `Announcement`), and a source whose descriptors
/// join the one poll; none can stop or delay the box.
enum NetworkOutputs {
    /// `snapshot` builds the status MQTT publishes (the same one the status file holds).
    static func attach(to runtime: BoxRuntime, config: Configuration, snapshot: SnapshotWriter, now: Instant) {
        if config.nmea.enabled { attachNMEA(to: runtime, config: config, now: now) }
        if config.mqtt.enabled { attachMQTT(to: runtime, config: config, snapshot: snapshot, now: now) }
        if config.signalK.enabled { attachSignalK(to: runtime, config: config, now: now) }
    }

    static func attachSignalK(to runtime: BoxRuntime, config: Configuration, now: Instant) {
        let signalK = SignalKOutput(settings: config.signalK, wall: WallClock.seconds, now: now)
        runtime.extraSources.append(signalK)
        runtime.box.announcers.append(signalK)
        runtime.extraRows.append { [signalK.row] }
        runtime.onShutdown.append { _ in signalK.close() }
        Console.out("Signal K: \(signalK.row.answer)")
    }

    static func attachMQTT(to runtime: BoxRuntime, config: Configuration, snapshot: SnapshotWriter, now: Instant) {
        let name = config.mqtt.box.isEmpty ? hostName() : config.mqtt.box
        // The same rule as `config --check` (NetworkChecks): refused, the Systems Check says why.
        if let problem = NetworkChecks.boxNameProblem(name) ?? NetworkChecks.passwordFileProblem(config.mqtt.passwordFile) {
            Console.error("MQTT: \(problem); not connecting")
            runtime.extraRows.append { [SystemsCheck.Row(.mqtt, .attention, "No: \(problem); not connecting")] }
            return
        }
        let mqtt = MQTTOutput(settings: config.mqtt, boxName: name, interval: .seconds(config.statusInterval), now: now,
                              snapshot: snapshot)
        mqtt.radiusRange = config.watchSettings.radiusRange
        runtime.extraSources.append(mqtt)
        // An announcer: a decision reaches the broker with its receipt, never before.
        runtime.box.announcers.append(mqtt)
        runtime.extraRows.append { [mqtt.row] }
        runtime.onShutdown.append { _ in mqtt.close() }
        if mqtt.client == nil, let problem = mqtt.problem {
            Console.error("MQTT: \(problem); not publishing")
        } else {
            Console.out("MQTT: \(mqtt.base) on \(config.mqtt.broker):\(config.mqtt.port)")
        }
    }

    static func hostName() -> String { Process.hostName ?? "" }

    static func attachNMEA(to runtime: BoxRuntime, config: Configuration, now: Instant) {
        var settings = config.nmea
        if let problem = NetworkChecks.talkerProblem(settings.talker) {
            Console.error("NMEA: \(problem); using II")
            settings.talker = "II"
        }
        let nmea = NMEAOutput(settings: settings, wall: WallClock.seconds, now: now)
        runtime.extraSources.append(nmea)
        runtime.box.announcers.append(nmea)
        runtime.extraRows.append { [nmea.row] }
        runtime.onShutdown.append { _ in nmea.close() }
        Console.out("NMEA: \(nmea.row.answer)")
    }
}
