/// The configuration keys of the network outputs (Docs/network.md), each section off unless
/// its `enabled` is true.
extension ConfigurationKey {
    static let network: [ConfigurationKey] = [
        flag("nmea", "enabled", "Send the alarm and the GPS faults as NMEA 0183 (ALF, ALC, ALR) to chartplotters", \.nmea.enabled),
        text("nmea", "listen", nil, "IPv4 address the NMEA TCP port listens on (0.0.0.0: every interface)", \.nmea.listen),
        integer("nmea", "port", 0...65535, "NMEA TCP port (10110 by convention; 0 picks a free one)", \.nmea.port),
        text("nmea", "udp_interface", nil, "Also broadcast the sentences as UDP on this interface, e.g. \"wlan0\" (empty: TCP only)", \.nmea.udpInterface),
        integer("nmea", "udp_port", 1...65535, "UDP port of the broadcast", \.nmea.udpPort),
        text("nmea", "talker", nil, "Two-letter talker of the sentences", \.nmea.talker),
        number("nmea", "repeat_interval", 1...300, "s", "Active alerts (ALF, ALR) and the alert list (ALC) are sent again this often", \.nmea.repeatEvery),
        flag("nmea", "acknowledge_snoozes", "An ACN (acknowledge or silence) or ACK of the anchor alarm from the network snoozes it, as the button does", \.nmea.acknowledgeSnoozes),
        integer("nmea", "max_clients", 1...64, "NMEA TCP clients at once; a new one takes the place of the one furthest behind", \.nmea.maxClients),
        text("nmea", "allow", nil, "Addresses or prefixes plotters connect from, e.g. \"192.168.1.0/24\", for the systemd unit's IPAddressAllow= (empty: localhost only)", \.nmea.allow),

        flag("mqtt", "enabled", "Publish the box's status on an MQTT broker (retained topics, a last will, Home Assistant discovery)", \.mqtt.enabled),
        text("mqtt", "broker", nil, "The broker's IPv4 address (a name needs a lookup that may block)", \.mqtt.broker),
        integer("mqtt", "port", 1...65535, "The broker's port (1883; 8883 is usual with TLS)", \.mqtt.port),
        text("mqtt", "box", nil, "This box's name on the broker, in its topics (empty: the host name)", \.mqtt.box),
        text("mqtt", "prefix", nil, "First level of the box's topics", \.mqtt.prefix),
        text("mqtt", "username", nil, "User name for the broker (empty: none)", \.mqtt.username),
        text("mqtt", "password_file", nil, "File holding the broker password, readable by the box only (empty: none)", \.mqtt.passwordFile),
        text("mqtt", "ca_file", nil, "CA certificate to verify the broker by; set, the connection uses TLS (empty: no TLS)", \.mqtt.caFile),
        text("mqtt", "cert_file", nil, "Client certificate for TLS (empty: none)", \.mqtt.certFile),
        text("mqtt", "key_file", nil, "Client key for TLS (empty: none)", \.mqtt.keyFile),
        integer("mqtt", "keepalive", 5...600, "Seconds between keepalives when nothing else is sent", \.mqtt.keepalive),
        flag("mqtt", "accept_commands", "Carry out snooze, mark and radius requests from the command topic", \.mqtt.acceptCommands),
        flag("mqtt", "discovery", "Announce the box to Home Assistant (MQTT discovery)", \.mqtt.discovery),
    ]
}
