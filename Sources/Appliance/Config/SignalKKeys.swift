/// The `[signalk]` section's keys (Docs/network.md, "Signal K").
extension ConfigurationKey {
    static let signalK: [ConfigurationKey] = [
        flag("signalk", "enabled", "Send the anchor, the alert radius, the alarm and the GPS fault as Signal K deltas on a TCP port", \.signalK.enabled),
        text("signalk", "listen", nil, "IPv4 address the Signal K TCP port listens on (0.0.0.0: every interface)", \.signalK.listen),
        integer("signalk", "port", 0...65535, "Signal K TCP port a Signal K server connects to (0 picks a free one)", \.signalK.port),
        integer("signalk", "max_clients", 1...16, "Signal K TCP clients at once; more are turned away", \.signalK.maxClients),
        text("signalk", "allow", nil, "Addresses or prefixes the Signal K server connects from, e.g. \"192.168.1.0/24\", for the systemd unit's IPAddressAllow= (empty: localhost only)", \.signalK.allow),
    ]
}
