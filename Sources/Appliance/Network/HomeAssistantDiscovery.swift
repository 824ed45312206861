import WatchCore

/// Home Assistant's MQTT discovery for one box (Docs/network.md, "Home Assistant"): the box as
/// one device, its entities' configs retained under `homeassistant/<component>/<id>/<object>/config`,
/// and the `attributes` topic they share. Pure: it builds payloads, the MQTT output sends them.
struct HomeAssistantDiscovery {
    /// The box's topics, `<prefix>/<box>`.
    let base: String
    let boxName: String
    /// Only then are there controls (snooze, alert radius): the box subscribes to nothing else.
    let acceptCommands: Bool
    let radiusRange: ClosedRange<Double>

    /// The topic a snooze button presses on; what it snoozes is the episode the box last
    /// announced on MQTT (Docs/network.md).
    var snoozeTopic: String { "\(base)/snooze" }
    static let snoozePress = "snooze"

    var id: String {
        // ASCII letters and digits only: Home Assistant accepts nothing else in a discovery topic.
        var out = "anchor_alert_"
        for s in boxName.unicodeScalars {
            let v = s.value
            let plain = (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v)
            out.unicodeScalars.append(plain ? s : "_")
        }
        return out
    }

    /// Every config topic with its payload; a control that commands don't allow gets an empty
    /// retained payload, which removes an entity announced before the setting changed.
    func configs() -> [(String, [UInt8])] {
        let device: JSON = .object([
            ("identifiers", .array([.string(id)])), ("name", .string("Anchor Alert \(boxName)")),
            ("manufacturer", .string("Anchor Alert")), ("model", .string("anchor-alert")),
            ("sw_version", .string(Version.number)),
        ])
        let origin: JSON = .object([("name", .string("anchor-alert")), ("sw_version", .string(Version.number))])
        func topic(_ component: String, _ object: String) -> String { "homeassistant/\(component)/\(id)/\(object)/config" }
        func entity(_ component: String, _ object: String, _ name: String, _ fields: [(String, JSON?)]) -> (String, [UInt8]) {
            let config: JSON = .object([
                ("name", .string(name)), ("unique_id", .string("\(id)_\(object)")),
                ("availability_topic", .string("\(base)/online")),
                ("payload_available", .string("online")), ("payload_not_available", .string("offline")),
                ("device", device), ("origin", origin),
            ] + fields)
            return (topic(component, object), Array(config.text.utf8))
        }
        let attributes: (String, JSON?) = ("json_attributes_topic", .string("\(base)/attributes"))
        var out: [(String, [UInt8])] = []
        let position: [(String, JSON?)] = [
            ("state_topic", .string("\(base)/state")), ("value_template", .string("{{ value_json.says }}")), attributes,
        ]
        out.append(entity("sensor", "position", "Position", position))
            // Safety: on means unsafe. The box says when (`unsafe` in the attributes): ringing, or
            // judged dragging, or snoozed while the boat is not holding (it rings again).
        let alarm: [(String, JSON?)] = [
            ("state_topic", .string("\(base)/attributes")),
            ("value_template", .string("{{ 'ON' if value_json.unsafe else 'OFF' }}")),
            ("device_class", .string("safety")), attributes,
        ]
        out.append(entity("binary_sensor", "alarm", "Alarm", alarm))
            // No anchor: `distance_m` is absent and the sensor reads unknown ("None"), with no
            // template warning.
        let distance: [(String, JSON?)] = [
            ("state_topic", .string("\(base)/position")),
            ("value_template", .string("{{ value_json.distance_m | default(None) }}")),
            ("unit_of_measurement", .string("m")), ("device_class", .string("distance")),
            ("state_class", .string("measurement")), ("suggested_display_precision", .number(0)),
        ]
        out.append(entity("sensor", "distance", "Distance to anchor", distance))
        let faults: [(String, JSON?)] = [
            ("state_topic", .string("\(base)/faults")),
            ("value_template", .string("{{ 'ON' if value_json | length > 0 else 'OFF' }}")),
            ("device_class", .string("problem")),
        ]
        out.append(entity("binary_sensor", "faults", "Faults", faults))
            // The boat on Home Assistant's map, from the attributes' latitude, longitude and
            // gps_accuracy (no state topic: the location is the state).
        let tracker: [(String, JSON?)] = [("source_type", .string("gps")), attributes]
        out.append(entity("device_tracker", "boat", "Boat", tracker))
        if acceptCommands {
            let snooze: [(String, JSON?)] = [
                ("command_topic", .string(snoozeTopic)), ("payload_press", .string(Self.snoozePress)),
            ]
            out.append(entity("button", "snooze", "Snooze", snooze))
            let radius: [(String, JSON?)] = [
                ("command_topic", .string("\(base)/command")),
                ("command_template", .string("{\"id\":\"home-assistant\",\"decision\":\"radius\",\"meters\":{{ value }}}")),
                ("state_topic", .string("\(base)/position")),
                ("value_template", .string("{{ value_json.alert_radius_m }}")),
                ("min", .number(radiusRange.lowerBound)), ("max", .number(radiusRange.upperBound)), ("step", .number(1)),
                ("unit_of_measurement", .string("m")), ("mode", .string("box")),
            ]
            out.append(entity("number", "radius", "Alert radius", radius))
        } else {
            out.append((topic("button", "snooze"), []))
            out.append((topic("number", "radius"), []))
        }
        return out
    }

    /// The `attributes` topic: what the entities show beside their state, and the boat's
    /// position for the tracker. Ages and the snooze's time left are as of `now`, the publish.
    static func attributes(_ status: WatchStatus, now: Instant) -> JSON {
        var episode: Int?
        var snoozeLeft: Double?
        switch status.alarm {
        case .ringing(let e): episode = e
        case .snoozed(let until, let e):
            episode = e
            snoozeLeft = max(0, (until - now).seconds)
        case .off, .armed: break
        }
        let holding = status.verdict.kind == .holding
        let unsafe: Bool
        switch status.alarm {
        case .ringing: unsafe = true
        case .snoozed: unsafe = !holding
        case .off, .armed: unsafe = status.verdict.kind == .dragging
        }
        return .object([
            ("unsafe", .bool(unsafe)),
            ("alarm", .string(status.alarm.kind.rawValue)),
            ("verdict", .string(status.verdict.kind.rawValue)),
            ("latitude", .number(status.boat?.latitude)), ("longitude", .number(status.boat?.longitude)),
            ("gps_accuracy", .number(status.boat == nil ? nil : status.accuracy?.value)),
            ("accuracy_m", .number(status.accuracy?.value)),
            ("reading_age_s", .number(status.readingAge.map { ($0.seconds * 10).rounded() / 10 })),
            ("episode", .int(episode)),
            ("snooze_left_s", .number(snoozeLeft.map { $0.rounded() })),
        ])
    }
}
