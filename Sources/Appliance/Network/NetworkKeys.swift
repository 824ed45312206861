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
        integer("nmea", "max_clients", 1...64, "NMEA TCP clients at once; more are turned away", \.nmea.maxClients),
    ]
}
