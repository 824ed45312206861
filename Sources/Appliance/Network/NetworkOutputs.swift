import Posix
import Drivers
import WatchCore

/// The parts on the boat's network, each only when its section enables it. None is on the
/// path from a fix to the buzzer: each is told after the box has acted (a decision only once
/// its receipt is in, `AnnouncedStatus`), and a source whose descriptors join the one poll; none
/// can stop or delay the box.
enum NetworkOutputs {
    /// `snapshot` builds the status MQTT publishes (the same one the status file holds); the
    /// sentences and deltas carry the wall time of the loop's turn (`clock`).
    static func parts(config: Configuration, snapshot: SnapshotWriter, clock: LoopClock, now: Instant) -> [Part] {
        var parts: [Part] = []
        let wall = { clock.wall.seconds }
        if config.nmea.enabled { parts.append(nmea(config: config, wall: wall, now: now)) }
        if config.mqtt.enabled { parts.append(mqtt(config: config, snapshot: snapshot, now: now)) }
        if config.signalK.enabled { parts.append(signalK(config: config, wall: wall, now: now)) }
        return parts
    }

    static func signalK(config: Configuration, wall: @escaping () -> Double, now: Instant) -> Part {
        let signalK = SignalKOutput(settings: config.signalK, wall: wall, now: now)
        Console.out("Signal K: \(signalK.row.answer)")
        return signalK
    }

    static func mqtt(config: Configuration, snapshot: SnapshotWriter, now: Instant) -> Part {
        let name = config.mqtt.box.isEmpty ? hostName() : config.mqtt.box
        // The same rule as `config --check` (NetworkChecks): refused, the Systems Check says why.
        if let problem = NetworkChecks.boxNameProblem(name) ?? NetworkChecks.passwordFileProblem(config.mqtt.passwordFile) {
            Console.error("MQTT: \(problem); not connecting")
            return CheckRow(SystemsCheck.Row(.mqtt, .attention, "No: \(problem); not connecting"))
        }
        let mqtt = MQTTOutput(settings: config.mqtt, boxName: name, interval: .seconds(config.runtime.statusInterval), now: now,
                              snapshot: snapshot)
        mqtt.radiusRange = config.watchSettings.radiusRange
        if mqtt.client == nil, let problem = mqtt.problem {
            Console.error("MQTT: \(problem); not publishing")
        } else {
            Console.out("MQTT: \(mqtt.base) on \(config.mqtt.broker):\(config.mqtt.port)")
        }
        return mqtt
    }

    static func hostName() -> String { Process.hostName ?? "" }

    static func nmea(config: Configuration, wall: @escaping () -> Double, now: Instant) -> Part {
        var settings = config.nmea
        if let problem = NetworkChecks.talkerProblem(settings.talker) {
            settings.talker = NMEASettings().talker
            Console.error("NMEA: \(problem); using \(settings.talker)")
        }
        let nmea = NMEAOutput(settings: settings, wall: wall, now: now)
        Console.out("NMEA: \(nmea.row.answer)")
        return nmea
    }
}

/// Each network output is polled, told the announced status, has its Systems Check row, and
/// closes on a clean stop.
extension NMEAOutput: Part, CheckedPart {
    var polled: Pollable? { self }
    var served: BoxServer? { self }
    var told: BoxObserver? { self }
    var checked: CheckedPart? { self }
    var rows: [SystemsCheck.Row] { [row] }
    func stop(now: Instant) { close() }
}

extension MQTTOutput: Part, CheckedPart {
    var polled: Pollable? { self }
    var served: BoxServer? { self }
    var told: BoxObserver? { self }
    var checked: CheckedPart? { self }
    var rows: [SystemsCheck.Row] { [row] }
    func stop(now: Instant) { close() }
}

extension SignalKOutput: Part, CheckedPart {
    var polled: Pollable? { self }
    var told: BoxObserver? { self }
    var checked: CheckedPart? { self }
    var rows: [SystemsCheck.Row] { [row] }
    func stop(now: Instant) { close() }
}
