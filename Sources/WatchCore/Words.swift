/// The product's words, not a copy of anything: the name `Copy` is kept for code outside the
/// package that spells it so (WatchCore's public face is extended, never renamed).
public typealias Copy = Words

/// Every sentence the box says about the watch, in the product's words: sentence case,
/// "Label: consequence", meters, one phrase per state, no em dashes.
public enum Words {
    public static func verdict(_ kind: PositionVerdict.Kind) -> String {
        switch kind {
        case .noAnchor: "No anchor"
        case .holding: "Holding"
        case .checking: "Checking"
        case .dragging: "Dragging"
        case .cantJudge: "Can't judge"
        }
    }

    public static func alarm(_ alarm: AlarmState, now: Instant) -> String {
        switch alarm {
        case .off: "Alarm off"
        case .armed: "Alarm on"
        case .ringing: "Alarm"
        case .snoozed(let until, _): "Snoozing \(countdown(until - now))"
        }
    }

    public static func cantJudge(_ reason: CantJudgeReason) -> String {
        switch reason {
        case .noReading: "No GPS reading yet"
        case .noFix: "GPS has no position"
        case .stale: "GPS reading is old"
        case .poorAccuracy: "GPS accuracy is too poor for the alert radius"
        case .implausible: "GPS reading jumped further than a boat can move"
        case .tooFewReadings: "Too few GPS readings to judge"
        }
    }

    /// The one line that says whether, and why not, the alarm could ring right now.
    public static func wontRing(verdict: PositionVerdict, alarm: AlarmState, now: Instant) -> String {
        switch (alarm, verdict) {
        case (.ringing, _): return "Ringing: snooze it or slide the switch off"
        case (.snoozed(let until, _), _): return "Won't ring: snoozed for \(countdown(until - now))"
        case (_, .noAnchor): return "Won't ring: no anchor marked"
        case (.off, _): return "Won't ring: alarm is off"
        case (.armed, .cantJudge): return "Won't ring: GPS can't judge a drag"
        case (.armed, .checking): return "Rings unless the boat comes back"
        case (.armed, .dragging): return "Rings now"
        case (.armed, .holding): return "Rings if the boat drags"
        }
    }

    public static func refusal(_ refusal: Refusal, settings: WatchSettings = WatchSettings()) -> String {
        switch refusal {
        case .noAnchor: "Can't arm: no anchor marked, the alarm comes on when you mark it"
        case .armedRelease: "Can't release: turn the alarm off to release the anchor"
        case .armedMark: "Can't mark: turn the alarm off to move the anchor"
        case .noGoodFix: "Can't mark: wait for a steady GPS reading"
        case .wrongEpisode: "Can't snooze: that alarm was already answered"
        case .notRinging: "Can't snooze: the alarm is not ringing"
        case .radiusOutOfRange:
            "Alert radius: choose \(Int(settings.radiusRange.lowerBound)) to \(Int(settings.radiusRange.upperBound)) meters"
        case .markTooFar: "Can't mark: the anchor must be within \(settings.markMaxOffset) of the boat"
        case .swingUnsettled: "Can't mark from the swing: the swing has not shown where the anchor is yet"
        case .swingMoving: "Can't mark from the swing: its centre is still moving, the anchor may be dragging"
        }
    }

    public static func receipt(_ receipt: Receipt, now: Instant) -> String {
        switch receipt.decision {
        case .arm: "Alarm on"
        case .disarm: "Alarm off"
        case .mark(.fromSwing): "Anchor marked from the swing at \(receipt.anchor.map { $0.description } ?? "?")\(armedByMark(receipt))"
        case .mark: "Anchor marked at \(receipt.anchor.map { $0.description } ?? "?")\(armedByMark(receipt))"
        case .release: "Anchor released"
        case .snooze where receipt.silencesFault:
            "Fault sound snoozed for \(countdown((receipt.until ?? now) - now)): it sounds again if the fault is still there"
        case .snooze: "Snoozed for \(countdown((receipt.until ?? now) - now))"
        case .setRadius:
            if let least = receipt.judgeable {
                "Alert radius: \(receipt.radius), too small for this GPS's accuracy: \(least) or more can be judged"
            } else {
                "Alert radius: \(receipt.radius)"
            }
        }
    }

    /// A mark can arm the box only when the switch was already on ARM (a mark is refused while
    /// armed), so a mark's receipt that leaves the alarm on says so.
    private static func armedByMark(_ receipt: Receipt) -> String {
        receipt.alarm.isArmed ? ", alarm on" : ""
    }

    public static func gpsLostFault(for lost: Duration) -> String {
        "GPS: no usable GPS reading for \(countdown(lost)), can't judge a drag"
    }

    /// The GPS fault in the words of its cause: readings that arrive but can't be judged are
    /// not "no reading". `lost` is how long it has been so (the grace as the fault is raised);
    /// `judgeable` the smallest alert radius the receiver's accuracy can judge.
    public static func gpsFault(_ reason: CantJudgeReason, for lost: Duration, radius: Meters, judgeable: Meters?) -> String {
        switch reason {
        case .poorAccuracy:
            if let judgeable {
                "GPS: accuracy too poor for a \(radius) alert radius, \(judgeable) or more can be judged"
            } else {
                "GPS: accuracy too poor for a \(radius) alert radius for \(countdown(lost)), can't judge a drag"
            }
        case .noFix: "GPS: the receiver has had no position for \(countdown(lost)), can't judge a drag"
        case .implausible: "GPS: readings jumped further than a boat can move for \(countdown(lost)), can't judge a drag"
        case .noReading, .stale, .tooFewReadings: gpsLostFault(for: lost)
        }
    }

    /// The radius advice: the receiver wanders too far for the margin between the swing and the
    /// alert radius. Says what would ring reliably; never widens the radius itself.
    public static func radiusAdvice(wander: Meters, reliable: Meters) -> String {
        "GPS wanders about \(Int(wander.value.rounded())) m: an alert radius of \(Int(reliable.value)) m or more rings reliably"
    }

    /// "Rings once the boat stands about 16 m beyond the alert radius, 46 m from the anchor: GPS
    /// wanders about 21 m". Standing: a boat dragging rings some way further, the time the
    /// evidence takes to add up. Where the receiver's quick excursions set the distance, they
    /// are the reason given: "...: GPS wanders about 4 m, and has run 16 m out and back".
    public static func ringDistance(beyond: Meters, radius: Meters, wander: Meters, excursions: Meters? = nil, after: Duration? = nil) -> String {
        "Rings once the boat stands about \(Int(beyond.value)) m beyond the alert radius, \(Int((radius.value + beyond.value).rounded())) m from the anchor"
            + (after.map { ", or stays beyond it over \(Int($0.seconds.rounded())) s" } ?? "") + ":"
            + " GPS wanders about \(Int(wander.value.rounded())) m"
            + (excursions.map { ", and has run \(Int($0.value.rounded())) m out and back" } ?? "")
    }

    /// m:ss, with mono-digit-friendly zero padding.
    public static func countdown(_ d: Duration) -> String {
        let total = max(0, Int(d.seconds.rounded(.up)))
        let s = total % 60
        return "\(total / 60):\(s < 10 ? "0" : "")\(s)"
    }
}

extension Words {
    /// The Systems Check's name for each component.
    public static func component(_ kind: FaultKind) -> String {
        switch kind {
        case .gpsLost: "GPS reading"
        case .gpsd: "gpsd"
        case .receiver: "GPS receiver"
        case .buzzer: "Buzzer"
        case .armSwitch: "Arm switch"
        case .button: "Button"
        case .ledRing: "LED ring"
        case .siren: "Siren"
        case .journal: "Journal"
        case .config: "Configuration"
        case .power: "Power"
        case .clock: "Clock"
        case .watchdog: "Watchdog"
        }
    }
}
