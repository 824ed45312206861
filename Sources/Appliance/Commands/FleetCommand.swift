import Posix
import Drivers
import WatchCore

/// `anchor-alert fleet`: every box on an MQTT broker, read-only. The broker holds each box's
/// retained status; this reads them and says, alarms first. It never sends a command.
enum FleetCommand: Command {
    static let name = "fleet"
    static let summary = "Every box on an MQTT broker, alarms first"
    static let help = """
        Usage: anchor-alert fleet --broker ADDRESS [--port N] [--prefix P] [--wait S]
                                  [--follow] [--json] [--username U] [--password-file F]
                                  [--ca-file F]

        Lists every box that publishes its status on the broker ([mqtt] on each box): boxes
        ringing or snoozed first, then boxes with a fault, not heard from or not holding,
        then the calm ones, each with how long ago it last said so. A box whose status is
        past its validity is "not heard from"; a box whose last will came is "offline".

          --broker ADDRESS     the broker's IPv4 address
          --port N             default \(MQTTSettings().port)
          --prefix P           the boxes' first topic level (mqtt.prefix, default \(MQTTSettings().prefix))
          --wait S             how long to gather retained statuses before printing (default 2)
          --follow             keep running; print a line whenever a box's verdict, alarm or
                               standing changes (one JSON object a line with --json)
          --json               one JSON object per box, a line each
          --username U, --password-file F, --ca-file F   as the boxes' [mqtt] keys

        Exit status: 0 listed, 1 the broker can't be reached, 64 usage.
        """

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        let broker: String, port: Int, prefix: String, wait: Double, follow: Bool, json: Bool
        var credentials = MQTTClient.Credentials()
        do {
            guard let b = try a.option("--broker") else { throw Arguments.UsageError(description: "--broker is needed") }
            broker = b
            port = Int(try a.double("--port") ?? Double(MQTTSettings().port))
            prefix = try a.option("--prefix") ?? MQTTSettings().prefix
            wait = try a.double("--wait") ?? 2
            follow = a.flag("--follow")
            json = a.flag("--json")
            credentials.username = try a.option("--username") ?? ""
            if let f = try a.option("--password-file") { credentials.password = Files.readText(f)?.withoutSpace ?? "" }
            credentials.caFile = try a.option("--ca-file") ?? ""
            _ = try a.finish(maxPositionals: 0)
        } catch {
            Console.error("anchor-alert fleet: \(error)")
            return ExitCode.usage
        }
        guard let client = MQTTClient(id: "anchor-alert-fleet-\(Process.id)", credentials: credentials) else {
            Console.error("Fleet: \(MQTTClient.unavailable ?? "can't set up the MQTT client")")
            return ExitCode.failure
        }
        var view = FleetView()
        // Waits are timed on the monotonic clock (a wall clock set by GPS or NTP may jump);
        // the boxes' ages are wall time, as their snapshots are.
        var lastMessage = MonotonicClock.now()
        var said: [String: String] = [:]
        client.onMessage = { topic, payload in
            guard let name = view.take(topic: topic, payload: payload, prefix: prefix) else { return }
            lastMessage = MonotonicClock.now()
            guard follow, let box = view.boxes[name] else { return }
            let now = WallTime.now()
            let key = "\(box.snapshot?.position.verdict.rawValue ?? "-") \(box.snapshot?.alarm.state.rawValue ?? "-") "
                + "\(FleetView.standing(box, now: now)) \(FleetView.heard(box, now: now))"
            if said[name] != key {
                said[name] = key
                Console.out(json ? FleetView.json(box, now: now).text : FleetView.line(box, now: now, width: name.count))
            }
        }
        var refused: Int32?
        client.onConnect = { rc in
            if rc != 0 { refused = rc; return }
            client.subscribe("\(prefix)/+/status")
            client.subscribe("\(prefix)/+/online")
        }
        if let err = client.connect(host: broker, port: port, keepalive: MQTTSettings().keepalive) {
            Console.error("Fleet: can't reach the broker at \(broker):\(port) (\(err))")
            return ExitCode.failure
        }
        let start = MonotonicClock.now()
        while !client.connected && refused == nil && MonotonicClock.now() - start < .seconds(5) {
            _ = client.run(forMilliseconds: 100)
        }
        guard client.connected else {
            Console.error("Fleet: can't reach the broker at \(broker):\(port)"
                + (refused.map { " (\(MQTTClient.describeConnack($0)))" } ?? ""))
            return ExitCode.failure
        }
        let subscribed = MonotonicClock.now()
        lastMessage = subscribed
        // Retained statuses arrive at once: stop gathering when they stop, or at --wait.
        while !follow && MonotonicClock.now() - subscribed < .seconds(wait)
            && !(view.boxes.count > 0 && MonotonicClock.now() - lastMessage > .milliseconds(500)) {
            if let err = client.run(forMilliseconds: 100) {
                Console.error("Fleet: the broker went away (\(err))")
                return ExitCode.failure
            }
        }
        if follow {
            while true {
                if client.run(forMilliseconds: 1000) != nil {
                    Console.error("Fleet: the broker went away; reconnecting")
                    MonotonicClock.sleep(seconds: 1)
                    _ = client.reconnect()
                }
            }
        }
        let now = WallTime.now()
        if json {
            for b in view.sorted(now: now) { Console.out(FleetView.json(b, now: now).text) }
        } else {
            for l in view.lines(now: now) { Console.out(l) }
        }
        client.disconnect()
        return ExitCode.ok
    }
}
