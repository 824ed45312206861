import Drivers
import WatchCore

/// The Systems Check: one row per component, each a question whose good answer is Yes.
/// `unknown` is its own status, never a synonym for failing or for ok: a row the checker could
/// not answer says so. The running box and `anchor-alert check` build rows with the same code.
enum SystemsCheck {
    enum Status: String, Hashable, Sendable, CaseIterable, Comparable {
        case failing, attention, unknown, ok

        static func < (a: Status, b: Status) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }

        var says: String {
            switch self {
            case .ok: "Ok"
            case .attention: "Attention"
            case .failing: "Failing"
            case .unknown: "Unknown"
            }
        }
    }

    enum Component: String, Hashable, Sendable, CaseIterable {
        case box
        case gpsReading = "gps_reading"
        /// Whether the mark agrees with the anchor the swing shows (StatusSnapshot+Glance).
        case anchorMark = "anchor_mark"
        case gpsd
        case receiver
        case buzzer
        case armSwitch = "arm_switch"
        case button
        case ledRing = "led_ring"
        case siren
        case journal
        case journalSpace = "journal_space"
        case journalCard = "journal_card"
        case power
        case clock
        case watchdog
        case configuration
        case nmeaOut = "nmea_out"
        case mqtt
        case signalK = "signal_k"

        /// Yes is always the good answer.
        var question: String {
            switch self {
            case .box: "Is the box answering?"
            case .gpsReading: "Is the GPS reading fresh?"
            case .anchorMark: "Is the mark where the swing shows the anchor?"
            case .gpsd: "Is gpsd answering?"
            case .receiver: "Is the GPS receiver connected?"
            case .buzzer: "Can the buzzer sound?"
            case .armSwitch: "Can the box read the arm switch?"
            case .button: "Can the box read the button?"
            case .ledRing: "Can the LED ring show the watch?"
            case .siren: "Can the siren sound?"
            case .journal: "Is the journal saving?"
            case .journalSpace: "Has the journal room to grow?"
            case .journalCard: "Is the journal kept through a power cut?"
            case .power: "Is the power supply steady?"
            case .clock: "Is the clock set?"
            case .watchdog: "Is the watchdog watching the box?"
            case .configuration: "Is the configuration file good?"
            case .nmeaOut: "Is NMEA 0183 going out?"
            case .mqtt: "Is the box on the MQTT broker?"
            case .signalK: "Is Signal K going out?"
            }
        }

        /// The outputs to the boat's network: never a fault of the watch, off unless configured.
        var isNetworkOutput: Bool { self == .nmeaOut || self == .mqtt || self == .signalK }

        /// The fault kind a failing row of this component raises on the box, and the kind
        /// whose fault makes this row fail.
        var faultKind: FaultKind? {
            switch self {
            case .box: nil
            case .gpsReading: .gpsLost
            case .anchorMark: nil
            case .gpsd: .gpsd
            case .receiver: .receiver
            case .buzzer: .buzzer
            case .armSwitch: .armSwitch
            case .button: .button
            case .ledRing: .ledRing
            case .siren: .siren
            case .journal, .journalSpace: .journal
            // A fact of where the journal lives, shown, never raised: the watch runs on.
            case .journalCard: nil
            case .power: .power
            case .clock: .clock
            case .watchdog: .watchdog
            case .configuration: .config
            case .nmeaOut, .mqtt, .signalK: nil
            }
        }

        /// The part in words, for "no arm switch is fitted".
        var name: String {
            switch self {
            case .armSwitch: "arm switch"
            case .ledRing: "LED ring"
            case .signalK: "Signal K output"
            case .gpsd: "gpsd"
            case .receiver: "GPS receiver"
            default: rawValue.replacingUnderscores
            }
        }

        /// What the skipper can do about a failing row of this component, in the imperative.
        var remedy: String? {
            switch self {
            case .box: "Check the box has power, then run anchor-alert status"
            case .gpsReading: "Give the GPS antenna a clear view of the sky"
            case .anchorMark: "Move the mark to the swing's anchor: anchor-alert mark --from-swing"
            // The box reconnects to gpsd by itself (gpsd started, or back); only a changed
            // address is read at a restart.
            case .gpsd: "Start gpsd (systemctl start gpsd): the box reconnects by itself. If gps.host or gps.port is wrong, fix it and restart the box"
            case .receiver: "Plug the GPS receiver back in"
            case .buzzer: "Check the buzzer's wires"
            case .armSwitch: "Check the arm switch's wires"
            case .button: "Check the button's wires"
            case .ledRing: "Check the LED ring's cable"
            case .siren: "Check the speaker and its cable"
            case .journal: "Restart the box; if it stays, replace the SD card"
            case .journalSpace: "Export and delete old nights: anchor-alert export"
            case .journalCard: "Set journal.directory to a folder on the card's ext4 partition, then restart the box"
            case .power: "Use a stronger power supply or a thicker cable"
            case .clock: "Let the box see a GPS reading or a network to set its clock"
            case .watchdog: nil
            case .configuration: "Fix the line the fault names, then restart the box"
            case .nmeaOut: "Free the port or set another in [nmea], then restart the box"
            case .signalK: "Free the port or set another in [signalk], then restart the box"
            case .mqtt: "Check the broker is running and [mqtt] names it; the box keeps trying"
            }
        }
    }

    struct Row: Hashable, Sendable {
        var component: Component
        var status: Status
        /// The line under the question: "Yes: ..." or "No: ..." or "Can't tell: ...".
        var answer: String
        /// Only where the skipper can apply one.
        var remedy: String?

        init(_ component: Component, _ status: Status, _ answer: String, remedy: String? = nil) {
            self.component = component
            self.status = status
            self.answer = answer
            self.remedy = status == .ok || status == .unknown && remedy == nil ? nil : (remedy ?? component.remedy)
        }

        var question: String { component.question }

        var json: JSON {
            .object([
                ("component", .string(component.rawValue)),
                ("question", .string(question)),
                ("status", .string(status.rawValue)),
                ("answer", .string(answer)),
                ("remedy", .string(remedy)),
            ] as [(String, JSON?)])
        }

        init(json: JSON) throws {
            guard let c = json["component"]?.string.flatMap(Component.init(rawValue:)),
                let s = json["status"]?.string.flatMap(Status.init(rawValue:)),
                let a = json["answer"]?.string
            else { throw StatusSnapshot.DecodeError(description: "snapshot: a Systems Check row is malformed") }
            component = c
            status = s
            answer = a
            remedy = json["remedy"]?.string
        }
    }
}

extension SystemsCheck {
    /// The rows the running box knows: from its watch status and the components it drives.
    /// `fitted` lists the components this box has (a box with no speaker has no siren); a
    /// fitted component with no fault is Yes, because its driver raises a fault when it fails.
    /// `absent` lists the components the configuration says are not fitted (a box without a
    /// speaker has no siren): their rows say so rather than "can't tell".
    static func boxRows(status: WatchStatus, fitted: Set<Component>, absent: Set<Component> = [], local: [Row]) -> [Row] {
        var rows: [Row] = [Row(.box, .ok, "Yes")]
        let faults = Dictionary(status.faults.map { ($0.kind, $0) }, uniquingKeysWith: { a, _ in a })
        rows.append(gpsRow(status: status, fault: faults[.gpsLost]))
        rows.append(anchorMarkRow(status))
        let localByComponent = Dictionary(local.map { ($0.component, $0) }, uniquingKeysWith: { a, _ in a })
        // Nothing that can sound: the buzzer and the siren rows both fail, whatever else they say.
        let silence = Self.silence(faults: faults, fitted: fitted, absent: absent)
        for c in Component.allCases where c != .box && c != .gpsReading && c != .anchorMark {
            if let silence, c == .buzzer || c == .siren {
                let fix = fitted.contains(c) ? c.remedy : "Fit a buzzer or a speaker: with neither the box can't ring"
                rows.append(Row(c, .failing, "No: \(silence)", remedy: fix))
                continue
            }
            var faultRow: Row?
            if let kind = c.faultKind, let fault = faults[kind], c != .journalSpace {
                faultRow = Row(c, fault.pushes ? .failing : .attention, "No: \(fault.message)",
                               remedy: c == .configuration ? Self.configurationRemedy(fault.message) : nil)
            }
            // A driver's fault and the monitor's own look: the worse of the two.
            if let local = localByComponent[c] {
                rows.append(faultRow.map { $0.status < local.status ? $0 : local } ?? local)
                continue
            }
            if let faultRow {
                rows.append(faultRow)
            } else if c == .receiver, let gpsd = faults[.gpsd] {
                // With gpsd silent nobody can say whether the receiver is plugged in.
                rows.append(Row(c, .unknown, "Can't tell: \(gpsd.message)"))
            } else if fitted.contains(c) {
                rows.append(Row(c, .ok, "Yes"))
            } else if c.isNetworkOutput {
                // Off by default; a running output gives its own row (`local`).
                rows.append(Row(c, .ok, "Off: not configured"))
            } else if absent.contains(c) {
                rows.append(c == .buzzer
                    ? Row(c, .attention, "No: no buzzer fitted, the box rings only where a siren is fitted",
                          remedy: "Fit a buzzer, then set buzzer_enabled = true under [gpio]")
                    : Row(c, .ok, c == .siren ? "No siren fitted: the buzzer rings alone" : "No: no \(c.name) is fitted, nothing to check"))
            } else {
                rows.append(Row(c, .unknown, "Can't tell: the box does not check this"))
            }
        }
        return rows
    }

    /// Why nothing on this box can sound the alarm ("nothing can sound the alarm: the buzzer
    /// has a fault and no siren is fitted"), or nil when something can, or when the box can't
    /// tell (a sounder neither fitted nor said to be absent).
    static func silence(faults: [FaultKind: Fault], fitted: Set<Component>, absent: Set<Component>) -> String? {
        func why(_ c: Component, _ kind: FaultKind, _ name: String) -> String? {
            if fitted.contains(c) { return faults[kind] == nil ? nil : "the \(name) has a fault" }
            return absent.contains(c) ? "no \(name) is fitted" : nil
        }
        guard let buzzer = why(.buzzer, .buzzer, "buzzer"), let siren = why(.siren, .siren, "siren") else { return nil }
        return "nothing can sound the alarm: \(buzzer) and \(siren)"
    }

    /// The faults as told to the skipper: a sounder's fault says what still sounds ("the buzzer
    /// still rings"), true when it was raised alone, not once the other can't sound either
    /// (faulty, or not fitted): then it says nothing can sound the alarm.
    static func told(_ faults: [Fault], fitted: Set<Component>, absent: Set<Component>) -> [Fault] {
        guard faults.contains(where: { $0.kind == .buzzer || $0.kind == .siren }) else { return faults }
        let byKind = Dictionary(faults.map { ($0.kind, $0) }, uniquingKeysWith: { a, _ in a })
        func cannot(_ c: Component, _ kind: FaultKind) -> Bool {
            fitted.contains(c) ? byKind[kind] != nil : absent.contains(c)
        }
        return faults.map { f in
            var f = f
            if f.kind == .buzzer, cannot(.siren, .siren) {
                f.message = f.message.replacingFirst(", " + GPIORole.buzzer.consequence, with: ", nothing can sound the alarm")
            } else if f.kind == .siren, cannot(.buzzer, .buzzer) {
                f.message = f.message.replacingFirst(", " + ALSASiren.consequence, with: ", nothing can sound the alarm")
            }
            return f
        }
    }

    /// The status's "Won't ring" line with the sounders counted: nothing that can sound is the
    /// first reason the box won't ring, before anything the watch says.
    static func wontRing(_ status: WatchStatus, fitted: Set<Component>, absent: Set<Component>) -> String {
        guard let silence = silence(status, fitted: fitted, absent: absent) else { return status.wontRing }
        return "Won't ring: " + silence
    }

    /// `silence` for the watch's faults now.
    static func silence(_ status: WatchStatus, fitted: Set<Component>, absent: Set<Component>) -> String? {
        let faults = Dictionary(status.faults.map { ($0.kind, $0) }, uniquingKeysWith: { a, _ in a })
        return silence(faults: faults, fitted: fitted, absent: absent)
    }

    /// The remedy while readings arrive but their accuracy is too poor for the alert radius: a
    /// clear sky may not help a receiver that reports this accuracy, a radius it can judge does.
    static func widerRadius(_ status: WatchStatus) -> String? {
        let poor: Bool
        if case .cantJudge(.poorAccuracy) = status.verdict { poor = true } else { poor = status.gpsUnusable == .poorAccuracy }
        guard poor, let least = status.judgeableRadius else { return nil }
        return "Set an alert radius this GPS can judge: anchor-alert radius \(Int(least.value))"
    }

    static func gpsRow(status: WatchStatus, fault: Fault?) -> Row {
        // The remedy of the cause: a clear sky does nothing for a gpsd that isn't answering or
        // a receiver unplugged, before the GPS-lost fault is raised as well as after.
        let kinds = Set(status.faults.map(\.kind))
        let cause: Component? = kinds.contains(.gpsd) ? .gpsd : kinds.contains(.receiver) ? .receiver : nil
        if let fault {
            return Row(.gpsReading, .failing, "No: \(fault.message)", remedy: cause?.remedy ?? widerRadius(status))
        }
        if case .cantJudge(let reason) = status.verdict {
            return Row(.gpsReading, .attention, "No: \(Words.cantJudge(reason).lowercasedFirst)", remedy: cause?.remedy ?? widerRadius(status))
        }
        // With no anchor the verdict says nothing of the GPS: a receiver that reports no
        // position, or a reading gone old, is still not a fresh GPS reading.
        if let reason = status.gpsUnusable {
            return Row(.gpsReading, .attention, "No: \(Words.cantJudge(reason).lowercasedFirst)", remedy: cause?.remedy ?? widerRadius(status))
        }
        guard status.readingAge != nil else { return Row(.gpsReading, .attention, "No: \(Words.cantJudge(.noReading).lowercasedFirst)") }
        // The receiver wanders too far for this alert radius: it judges, but not reliably.
        if let advice = status.radiusAdvice { return Row(.gpsReading, .attention, "Yes, but \(advice)") }
        // No age or accuracy here: they change with every fix, and `status` shows them.
        return Row(.gpsReading, .ok, "Yes")
    }

    /// The mark against the anchor the swing shows: a move offered is Attention, never
    /// Failing (the mark is the skipper's, and the watch guards it as set).
    static func anchorMarkRow(_ status: WatchStatus) -> Row {
        guard let anchor = status.anchor else { return Row(.anchorMark, .unknown, "Can't tell: no anchor marked") }
        if let offer = status.swingOffer { return Row(.anchorMark, .attention, "No: \(offer.says)") }
        guard let e = status.swing, e.steady else {
            return Row(.anchorMark, .unknown, "Can't tell yet: the swing has not shown where the anchor is")
        }
        if e.moving {
            return Row(.anchorMark, .attention, "No: the swing's centre is moving, the anchor may be dragging",
                       remedy: "Check the anchor is holding; the mark stays where it is")
        }
        guard e.stable else { return Row(.anchorMark, .unknown, "Can't tell yet: the swing is still settling") }
        return Row(.anchorMark, .ok, "Yes: the swing's centre is \(Geodesy.distance(anchor, e.centre)) from the mark")
    }

    /// Rows for when the box is not answering: what only the box could tell is unknown.
    /// The configuration fault's fix, fitted to what it names: a line of the file, a key, or
    /// (several problems) only their count.
    static func configurationRemedy(_ message: String) -> String {
        if message.hasPrefix("Configuration: line ") { return "Fix the line the fault names, then restart the box" }
        if message.hasSuffix(" problems, running on defaults for those keys") {
            return "See each problem: anchor-alert config --check \(Configuration.defaultPath); fix them, then restart the box"
        }
        return "Fix the key the fault names, then restart the box"
    }

    static func rowsWithoutBox(_ boxAnswer: String, local: [Row]) -> [Row] {
        var rows = [Row(.box, .failing, boxAnswer)]
        let localByComponent = Dictionary(local.map { ($0.component, $0) }, uniquingKeysWith: { a, _ in a })
        for c in Component.allCases where c != .box {
            rows.append(localByComponent[c] ?? Row(c, .unknown, "Can't tell: only the running box knows"))
        }
        return rows
    }

    /// The headline: "Systems Check: all ok" or the counts worth a look.
    static func headline(_ rows: [Row]) -> String {
        let failing = rows.filter { $0.status == .failing }.count
        let attention = rows.filter { $0.status == .attention }.count
        let unknown = rows.filter { $0.status == .unknown }.count
        if failing + attention + unknown == 0 { return "Systems Check: all ok" }
        var parts: [String] = []
        if failing > 0 { parts.append("\(failing) failing") }
        if attention > 0 { parts.append("\(attention) need\(attention == 1 ? "s" : "") attention") }
        if unknown > 0 { parts.append("\(unknown) unknown") }
        return "Systems Check: " + parts.joined(separator: ", ")
    }
}

private extension String {
    var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }

    /// The first `target` replaced, if there is one.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(target) { return String(self[..<i]) + replacement + self[index(i, offsetBy: target.count)...] }
            i = index(after: i)
        }
        return self
    }
}
