/// The addresses the systemd unit lets the box reach, derived from the configuration so the
/// unit is never hand-edited: `anchor-alert config --network-allow` prints a drop-in that the
/// generator (image/deb/anchor-alert-generator) installs at boot and at every daemon-reload.
/// The unit itself allows only localhost; this adds exactly the configured peers.
enum NetworkAllow {
    /// Each entry with the key that asked for it.
    static func entries(_ c: Configuration) -> [(address: String, because: String)] {
        var out: [(String, String)] = []
        if c.gps.source == "gpsd", !isLoopback(c.gps.gpsd.host) { out.append((c.gps.gpsd.host, "gps.host")) }
        if c.mqtt.enabled, !isLoopback(c.mqtt.broker) { out.append((c.mqtt.broker, "mqtt.broker")) }
        if c.nmea.enabled {
            for a in c.nmea.allow.split(separator: " ").map(String.init) where !a.isEmpty {
                out.append((a, "nmea.allow"))
            }
        }
        if c.signalK.enabled {
            for a in c.signalK.allow.split(separator: " ").map(String.init) where !a.isEmpty {
                out.append((a, "signalk.allow"))
            }
        }
        return out
    }

    /// NMEA on, listening beyond this box, and no `nmea.allow`: the unit lets no plotter in
    /// but this box's own. The Systems Check row and the drop-in say so, from this one rule.
    static func nmeaLocalOnly(_ n: NMEASettings) -> Bool {
        n.enabled && !isLoopback(n.listen) && n.allow.split(separator: " ").isEmpty
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    static func dropIn(_ c: Configuration, from path: String) -> String {
        var out = "# Written by anchor-alert config --network-allow from \(path); do not edit: change the\n"
        out += "# configuration and run systemctl daemon-reload, then restart the box.\n[Service]\n"
        let e = entries(c)
        if e.isEmpty { out += "# No address beyond localhost is configured.\n" }
        if nmeaLocalOnly(c.nmea) { out += "# nmea.allow is empty: only this box reaches the NMEA port\n" }
        for (address, because) in e { out += "# \(because)\nIPAddressAllow=\(address)\n" }
        if c.nmea.enabled, !c.nmea.udpInterface.isEmpty {
            // getifaddrs(3) asks the kernel over netlink for the interface's broadcast address.
            out += "# nmea.udp_interface\nRestrictAddressFamilies=AF_NETLINK\n"
        }
        return out
    }
}
