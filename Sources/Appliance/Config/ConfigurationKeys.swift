import WatchCore

/// One key of the configuration file: its section and name, its type and range, a one-line
/// meaning for Docs/configuration.md, and how it sets the `Configuration`.
struct ConfigurationKey: Sendable {
    enum Kind: Sendable {
        case number(ClosedRange<Double>, unit: String)
        case integer(ClosedRange<Int>)
        case string(allowed: [String]?)
        case bool
    }

    var section: String
    var name: String
    var kind: Kind
    var meaning: String
    var apply: @Sendable (inout Configuration, ConfigValue) -> Void
    var current: @Sendable (Configuration) -> String

    var fullName: String { "\(section).\(name)" }
}

enum ConfigValue: Sendable {
    case number(Double)
    case string(String)
    case bool(Bool)

    var number: Double { if case .number(let n) = self { n } else { 0 } }
    var string: String { if case .string(let s) = self { s } else { "" } }
    var bool: Bool { if case .bool(let b) = self { b } else { false } }
}

extension ConfigurationKey {
    static func seconds(_ section: String, _ name: String, _ range: ClosedRange<Double>, _ meaning: String,
                                _ path: WritableKeyPath<Configuration, Duration> & Sendable) -> ConfigurationKey {
        ConfigurationKey(section: section, name: name, kind: .number(range, unit: "s"), meaning: meaning,
                         apply: { $0[keyPath: path] = .seconds($1.number) },
                         current: { format($0[keyPath: path].seconds) })
    }
    static func number(_ section: String, _ name: String, _ range: ClosedRange<Double>, _ unit: String,
                               _ meaning: String, _ path: WritableKeyPath<Configuration, Double> & Sendable) -> ConfigurationKey {
        ConfigurationKey(section: section, name: name, kind: .number(range, unit: unit), meaning: meaning,
                         apply: { $0[keyPath: path] = $1.number }, current: { format($0[keyPath: path]) })
    }
    /// A whole number, into whichever integer type its section holds (the range fits it).
    static func integer<T: BinaryInteger & Sendable>(_ section: String, _ name: String, _ range: ClosedRange<Int>, _ meaning: String,
                                _ path: WritableKeyPath<Configuration, T> & Sendable) -> ConfigurationKey {
        ConfigurationKey(section: section, name: name, kind: .integer(range), meaning: meaning,
                         apply: { $0[keyPath: path] = T(clamping: Int($1.number)) }, current: { String($0[keyPath: path]) })
    }
    static func text(_ section: String, _ name: String, _ allowed: [String]?, _ meaning: String,
                             _ path: WritableKeyPath<Configuration, String> & Sendable) -> ConfigurationKey {
        ConfigurationKey(section: section, name: name, kind: .string(allowed: allowed), meaning: meaning,
                         apply: { $0[keyPath: path] = $1.string }, current: { "\"\($0[keyPath: path])\"" })
    }
    static func flag(_ section: String, _ name: String, _ meaning: String,
                             _ path: WritableKeyPath<Configuration, Bool> & Sendable) -> ConfigurationKey {
        ConfigurationKey(section: section, name: name, kind: .bool, meaning: meaning,
                         apply: { $0[keyPath: path] = $1.bool }, current: { $0[keyPath: path] ? "true" : "false" })
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e12 ? String(Int64(x)) : String(x)
    }

    /// Every key the box reads. Docs/configuration.md is this table.
    static let all: [ConfigurationKey] = [
        number("watch", "radius", WatchSettings().radiusRange, "m", "Alert radius until the skipper sets one", \.watchSettings.radius.value),
        seconds("watch", "window", 2...600, "Holding needs watch.min_fixes usable GPS readings within this", \.watchSettings.window),
        integer("watch", "min_fixes", 1...600, "Fewest usable GPS readings in the window to say Holding (fewer: Can't judge)", \.watchSettings.minFixes),
        seconds("watch", "confirmation", 1...600, "Standing one wander beyond the deadband this long is Dragging (further out, sooner)", \.watchSettings.confirmation),
        seconds("watch", "fastest", 1...600, "No drag rings sooner than this after the first evidence, however far out", \.watchSettings.fastest),
        number("watch", "deadband", 0...10, "wanders", "Beyond the alert radius by less than this many of the GPS's measured wanders is no evidence", \.watchSettings.deadband),
        seconds("watch", "memory", 1...3600, "While GPS readings are missing or can't judge, the evidence fades with this time constant", \.watchSettings.memory),
        number("watch", "weak_weight", 0.1...1, "", "A 2D reading, or one without a reported accuracy, counts this much of a 3D one", \.watchSettings.weakWeight),
        number("watch", "weak_deadband", 0...10, "wanders", "A 2D reading, or one without a reported accuracy, among 3D ones counts only this many wanders beyond the alert radius (at least watch.deadband)", \.watchSettings.weakDeadband),
        number("watch", "doppler_deadband", 0...10, "wanders", "While the GPS's reported speed carries the boat away from the anchor, the deadband is this instead", \.watchSettings.dopplerDeadband),
        seconds("watch", "doppler_fastest", 1...600, "While the reported speed carries the boat away, no drag rings sooner than this", \.watchSettings.dopplerFastest),
        seconds("watch", "doppler_span", 1...600, "The reported speed away from the anchor is smoothed over this", \.watchSettings.dopplerSpan),
        number("watch", "doppler_threshold", 0...100, "spreads", "The smoothed speed away from the anchor counts once it is this many of its own measured spreads", \.watchSettings.dopplerThreshold),
        number("watch", "doppler_minimum", 0...10, "m/s", "The slowest speed away from the anchor that hastens the alarm", \.watchSettings.dopplerMinimum),
        number("watch", "doppler_prior", 0.01...10, "m/s", "The spread of the speed away from the anchor assumed until it is measured", \.watchSettings.dopplerPrior),
        number("watch", "doppler_floor", 0.001...10, "m/s", "The measured spread of the speed away from the anchor is never taken as less than this", \.watchSettings.dopplerFloor),
        seconds("watch", "doppler_recent_span", 0...86_400, "The spread of the speed away from the anchor is also measured over this recent span, and the larger counts (0: the long span alone)", \.watchSettings.dopplerRecentSpan),
        number("watch", "doppler_independence", 0...10, "", "The reported speed counts only once it differs from the change of the positions by this share of it (a speed worked out from positions never counts)", \.watchSettings.dopplerIndependence),
        number("watch", "accuracy_weight", 0...5, "", "A reading counts as beyond the radius only by what lies beyond this many of its reported accuracies", \.watchSettings.accuracyWeight),
        number("watch", "noise_floor", 0.1...100, "m", "The GPS's measured wander is never taken as less than this", \.watchSettings.noiseFloor.value),
        number("watch", "noise_prior", 0.1...100, "m", "The GPS's wander assumed until it is measured", \.watchSettings.noisePrior.value),
        seconds("watch", "noise_span", 60...86_400, "The GPS's wander is measured over this", \.watchSettings.noiseSpan),
        seconds("watch", "swing_span", 10...86_400, "The wander is measured about the mean distance to the anchor over this (the swing)", \.watchSettings.swingSpan),
        number("watch", "reliable_margin", 0...20, "wanders", "An alert radius closer than this many wanders to the swing gets the radius advice", \.watchSettings.reliableMargin),
        seconds("watch", "stale_after", 1...600, "A GPS reading older than this can't judge a drag", \.watchSettings.staleAfter),
        number("watch", "accuracy_limit", 0.1...10, "x radius", "Fixes whose reported accuracy is worse than this share of the alert radius are not evidence", \.watchSettings.accuracyLimitFraction),
        seconds("watch", "gps_grace", 5...3600, "Armed with no usable GPS reading this long raises the GPS fault", \.watchSettings.gpsGrace),
        seconds("watch", "snooze", 10...3600, "How long a snooze silences the alarm", \.watchSettings.snooze),
        number("watch", "max_plausible_speed", 1...100, "m/s", "Faster apparent jumps are a receiver gone mad, not evidence", \.watchSettings.maxPlausibleSpeed),

        text("gps", "source", ["gpsd", "simulated"], "Where fixes come from: gpsd, or the simulated boat of the demo", \.gps.source),
        text("gps", "host", nil, "gpsd's host: an address, or localhost (the box never looks up a name: a lookup could hold up the alarm)", \.gps.gpsd.host),
        integer("gps", "port", 1...65535, "gpsd's port", \.gps.gpsd.port),
        seconds("gps", "reports_stopped_after", 2...600, "No report from the receiver this long: the receiver fault", \.gps.gpsd.reportsStoppedAfter),
        seconds("gps", "clock_tolerance", 1...86_400, "GPS time this far from the system clock: the clock fault", \.gps.gpsd.clockTolerance),

        text("journal", "directory", nil, "Where the journal lives (storage that survives a reboot)", \.journal.directory),
        integer("journal", "segment_bytes", 65_536...67_108_864, "A journal segment rotates at this size (bytes)", \.journal.limits.segmentBytes),
        integer("journal", "max_bytes", 1_048_576...1_073_741_824, "The journal keeps at most this much, dropping the oldest track first (bytes)", \.journal.limits.totalBytes),
        integer("journal", "min_free_bytes", 0...1_073_741_824, "Free space the journal leaves on the card (bytes)", \.journal.limits.minFreeBytes),
        seconds("journal", "calm_track_interval", 1...600, "One track fix kept per this while holding (every fix while checking, dragging or ringing)", \.journal.limits.calmTrackInterval),
        seconds("journal", "calm_flush_after", 10...3600, "Batched track fixes are synced at most this late while calm (SD cards wear with every flush)", \.journal.limits.calmFlushAge),
        seconds("journal", "attention_flush_after", 1...600, "Batched track fixes are synced at most this late while checking, dragging or ringing", \.journal.limits.attentionFlushAge),
        seconds("journal", "retry_after", 5...3600, "A failed journal tries again after this", \.journal.limits.retryInterval),
        text("runtime", "directory", nil, "Where the status snapshot and the control socket live", \.runtime.directory),
        number("runtime", "status_interval", 1...300, "s", "Steady rate of the status snapshot while nothing changes; readers believe it for twice this plus 15 s", \.runtime.statusInterval),

        text("gpio", "chip", nil, "GPIO chip by name or path", \.gpio.chip),
        text("gpio", "buzzer", nil, "Buzzer output line, by name or offset", \.gpio.buzzer),
        text("gpio", "arm_switch", nil, "Arm switch input line, by name or offset", \.gpio.armSwitch),
        text("gpio", "button", nil, "Button input line, by name or offset", \.gpio.button),
        flag("gpio", "buzzer_enabled", "Whether a buzzer is fitted", \.gpio.buzzerEnabled),
        flag("gpio", "switch_enabled", "Whether an arm switch is fitted", \.gpio.switchEnabled),
        flag("gpio", "button_enabled", "Whether a button is fitted", \.gpio.buttonEnabled),
        text("gpio", "arm_switch_arms_when", ["closed", "open"], "Which contact state of the switch means ARM (open is fail-safe: a broken wire arms rather than disarms)", \.gpio.armContact),
        flag("gpio", "pull_up", "Use the Pi's internal pull-ups on the switch and button (false: the board has its own resistors)", \.gpio.pullUp),
        number("gpio", "debounce", 0.001...1, "s", "How long the switch must stay put to count", \.gpio.debounce),
        number("gpio", "long_press", 0.5...10, "s", "A press at least this long is a long press (mark)", \.gpio.longPress),
        number("gpio", "very_long_press", 1...30, "s", "A press at least this long is a very long press (release)", \.gpio.veryLongPress),

        flag("ring", "enabled", "Whether an LED ring is fitted", \.ring.enabled),
        text("ring", "type", ["ws2812", "apa102"], "Pixel type", \.ring.type),
        text("ring", "device", nil, "SPI device", \.ring.device),
        integer("ring", "pixels", 1...256, "Pixels on the ring", \.ring.look.pixelCount),
        text("ring", "order", ["rgb", "rbg", "grb", "gbr", "brg", "bgr"], "Colour order of the pixels", \.ring.order),
        number("ring", "brightness", 0.01...1, "", "Working brightness, while something is happening", \.ring.look.workingBrightness),
        integer("ring", "top_pixel", 0...255, "Which pixel sits at 12 o'clock as the ring is mounted", \.ring.look.topPixel),
        flag("ring", "clockwise", "Whether pixel numbers run clockwise as the ring is mounted", \.ring.look.clockwise),
        integer("ring", "spi_hz", 0...20_000_000, "SPI clock in Hz; 0 means the pixel type's own (2.4 MHz WS2812, 4 MHz APA102)", \.ring.spiHz),
        number("ring", "night_brightness", 0.01...1, "", "Brightness once all has been calm a while (ringing is always full)", \.ring.look.nightBrightness),
        seconds("ring", "calm_after", 0...86_400, "Calm this long settles the ring to its night glow", \.ring.look.calmAfter),

        flag("siren", "enabled", "Whether a speaker is fitted", \.siren.enabled),
        text("siren", "device", nil, "ALSA device", \.siren.settings.device),
        number("siren", "volume", 0...1, "", "Siren volume, 0 to 1", \.siren.settings.volume),

        number("boat", "bow_offset", 0...50, "m", "From the GPS antenna to the bow roller", \.boat.bowOffset),
        number("boat", "length", 2...100, "m", "Boat length, for the alert radius from rode and depth", \.boat.length),
    ] + network + signalK
}
