import Posix

/// What `run` refuses of the `[nmea]` and `[mqtt]` sections, in the words `config --check`
/// prints too: one rule, so the checker passes nothing the box then turns down.
enum NetworkChecks {
    /// The box name is a topic level and, as it stands, Home Assistant's discovery id: ASCII
    /// letters, digits, `-`, `_` and `.`, 1 to 64 of them (its discovery topics allow no more).
    static func boxNameProblem(_ name: String) -> String? {
        let fits = name.utf8.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F || b == 0x2E
        }
        if name.isEmpty { return "the box has no name (mqtt.box is empty and so is the host name)" }
        guard fits, name.utf8.count <= 64 else {
            return "the box name \"\(name)\" can't be a topic level: use up to 64 ASCII letters, digits, - _ or ."
        }
        return nil
    }

    static func talkerProblem(_ talker: String) -> String? {
        let t = talker.utf8
        guard t.count == 2, t.allSatisfy({ (0x41...0x5A).contains($0) }) else {
            return "the NMEA talker must be two capital letters, not \"\(talker)\""
        }
        return nil
    }

    static func listenProblem(_ listen: String) -> String? {
        SocketAddress(host: listen, port: 0) == nil ? "nmea.listen must be an IPv4 address, not \"\(listen)\"" : nil
    }

    /// The password file must be there, readable by the box, and readable by no other user
    /// (the password would be anyone's on the box).
    static func passwordFileProblem(_ path: String) -> String? {
        guard !path.isEmpty else { return nil }
        let status: Files.Status
        do { status = try Files.status(path) } catch let e as SystemError {
            return "can't read the password file \(path) (\(e.errno))"
        } catch { return "can't read the password file \(path)" }
        if status.permissions & 0o004 != 0 { return "the password file \(path) is readable by every user; chmod 600 it" }
        guard Files.isReadable(path) else { return "can't read the password file \(path) (\(Errno.current))" }
        return nil
    }

    /// Every problem `run` would refuse, each as `config --check` prints it.
    static func problems(_ c: Configuration, hostName: String) -> [String] {
        var out: [String] = []
        if c.nmea.enabled {
            if let p = talkerProblem(c.nmea.talker) { out.append("Configuration: \(p); the box would use \(NMEASettings().talker)") }
            if let p = listenProblem(c.nmea.listen) { out.append("Configuration: \(p); the box would send no NMEA") }
        }
        if c.mqtt.enabled {
            if let p = boxNameProblem(c.mqtt.box.isEmpty ? hostName : c.mqtt.box) {
                out.append("Configuration: \(p); the box would not connect to the broker")
            }
            if let p = passwordFileProblem(c.mqtt.passwordFile) {
                out.append("Configuration: \(p); the box would not connect to the broker")
            }
        }
        return out
    }
}
