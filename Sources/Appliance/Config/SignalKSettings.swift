/// The `[signalk]` section: the anchor watch as Signal K deltas on a TCP port, for a Signal K
/// server's "Signal K" data connection (Docs/network.md). Off unless enabled.
struct SignalKSettings: Sendable, Hashable {
    var enabled = false
    /// IPv4 address to listen on; "0.0.0.0" is every interface of the box.
    var listen = "0.0.0.0"
    /// Not 8375: a Signal K server on the same Pi takes that port for its own TCP stream.
    var port = 8376
    var maxClients = 4
    /// Where the Signal K server connects from, for the systemd unit (IPAddressAllow= syntax).
    var allow = ""
}
