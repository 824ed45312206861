// The network outputs' settings as the configuration reads them: plain data beside the other
// keys, so the configuration (and its fuzz target) builds without the outputs themselves. The
// alert stream's defaults are NMEA0183's own (`AlertStream`), written there once.
import NMEA0183

/// The `[nmea]` section: alerts as NMEA 0183 for chartplotters. Off unless enabled.
struct NMEASettings: Sendable, Hashable {
    var enabled = false
    /// IPv4 address to listen on; "0.0.0.0" is every interface of the box.
    var listen = "0.0.0.0"
    /// 10110 is the port plotters and OpenCPN look for by convention, on TCP and UDP alike.
    static let conventionalPort = 10110
    var port = NMEASettings.conventionalPort
    /// An interface to broadcast on as well ("wlan0"); empty: TCP only.
    var udpInterface = ""
    var udpPort = NMEASettings.conventionalPort
    var talker = AlertStream.defaultTalker
    var repeatEvery = AlertStream.defaultRepeat.seconds
    /// Whether an ACN (acknowledge or silence) or ACK of the anchor alarm snoozes it.
    var acknowledgeSnoozes = false
    var maxClients = 8
    /// Where plotters connect from, for the systemd unit (IPAddressAllow= syntax, spaces between).
    var allow = ""
}

/// The `[mqtt]` section: the box on an MQTT broker (Docs/network.md). Off unless enabled.
struct MQTTSettings: Sendable, Hashable {
    var enabled = false
    /// An address, not a name: a name needs a lookup that could block the loop.
    var broker = "127.0.0.1"
    var port = 1883
    /// This box's name on the broker; empty: the host name.
    var box = ""
    var prefix = "anchor-alert"
    var username = ""
    /// A file holding the password (kept out of the configuration file, which any user reads).
    var passwordFile = ""
    var caFile = ""
    var certFile = ""
    var keyFile = ""
    var keepalive = 30
    /// Whether snooze, mark and radius requests on the command topic are carried out.
    var acceptCommands = false
    var discovery = true
}
