import WatchCore

/// The ring's one drawing rule, pure: from what the watch says, `now` and when things were last
/// calm, to a frame of gamma-corrected pixels in wire order.
///
/// - Colour is the position (the two-classifier rule): no anchor blue, holding green, checking
///   amber, dragging red, can't judge grey.
/// - Shape is the alarm: armed is a whole ring, alarm off lights every other pixel (a broken
///   ring reads as "off" across a dark cabin without knowing any colours), snoozed is an arc
///   that shrinks back to 12 o'clock as the snooze runs out, dark beyond it.
/// - Checking fills amber clockwise from 12 o'clock with its progress over a dim amber outline.
/// - A fault is a marker at 6 o'clock (the failing shield's red, with a dark pixel either side so
///   it stands out even on a red ring); every other pixel still shows the position. A box with
///   nothing that can sound the alarm (`RingSettings.canSound`) shows the marker too, and never
///   settles to the night glow: a state that can't ring is never calm green.
/// - Only the alarm moves: ringing throbs at full brightness. Nothing else animates, and a state
///   change is a step, never a fade.
public struct RingRenderer: Hashable, Sendable {
    public var settings: RingSettings

    public init(settings: RingSettings = RingSettings()) { self.settings = settings }

    public var layout: RingLayout { RingLayout(settings) }

    /// The unfilled part of the checking fill: dim, so the ring's shape (whole, so armed) stays
    /// readable.
    public static let outlineLevel = 0.15
    /// One breath every 0.8 s, two cycles of the 0.2 s on/off buzz, so ring and buzzer agree.
    public static let throbPeriod: Duration = .milliseconds(800)
    /// The throb's low point, a share of full brightness: the colour must stay readable.
    public static let throbFloor = 0.25
    /// 25 frames a second, and only while ringing: enough for a smooth breath on a Pi Zero.
    public static let throbStep: Duration = .milliseconds(40)

    // MARK: - Frames

    public func frame(_ status: WatchStatus, at now: Instant, calmSince: Instant) -> [RGB] {
        let global = brightness(status, at: now, calmSince: calmSince)
        let drawn = positions(status, at: now).map { pixel -> RGB in
            guard let role = pixel.role else { return .black }
            return Gamma.drive(role.sRGB, brightness: pixel.level * global)
        }
        return layout.toWire(drawn)
    }

    /// One pixel before brightness: a role and a share of the ring's brightness; nil is dark.
    public struct Pixel: Hashable, Sendable {
        public var role: PaletteRole?
        public var level: Double
        public static let dark = Pixel(role: nil, level: 0)
    }

    /// The frame in clock positions (0 at 12 o'clock, clockwise), before brightness and gamma.
    public func positions(_ status: WatchStatus, at now: Instant) -> [Pixel] {
        let n = layout.count
        var pixels: [Pixel]
        switch status.verdict {
        case .noAnchor: pixels = Array(repeating: Pixel(role: .neutral, level: 1), count: n)
        case .holding: pixels = Array(repeating: Pixel(role: .holding, level: 1), count: n)
        case .dragging: pixels = Array(repeating: Pixel(role: .danger, level: 1), count: n)
        case .cantJudge: pixels = Array(repeating: Pixel(role: .cantJudge, level: 1), count: n)
        case .checking(let progress):
            let filled = Self.checkingFill(progress, count: n)
            pixels = (0..<n).map { Pixel(role: .attention, level: $0 < filled ? 1 : Self.outlineLevel) }
        }

        switch status.alarm {
        case .off:
            for p in stride(from: 1, to: n, by: 2) { pixels[p] = .dark }
        case .armed, .ringing:
            break
        case .snoozed(let until, _):
            let lit = Self.countdownLit(remaining: until - now, total: settings.snoozeLength, count: n)
            // The run-out part goes dark, not dim: a dim outline would hide the countdown
            // behind checking's own dim outline.
            for p in lit..<n { pixels[p] = .dark }
        }

        if !status.faults.isEmpty || !settings.canSound {
            let bottom = n / 2
            if n >= 6 {
                pixels[bottom - 1] = .dark
                pixels[(bottom + 1) % n] = .dark
            }
            pixels[bottom] = Pixel(role: .fault, level: 1)
        }
        return pixels
    }

    /// Pixels filled for a checking progress: at least one, so checking never looks like an
    /// empty outline, and all of them only at the verdict.
    public static func checkingFill(_ progress: Double, count: Int) -> Int {
        guard progress.isFinite else { return 1 }
        return min(count, max(1, Int((progress * Double(count)).rounded(.up))))
    }

    /// Pixels still lit for a snooze with `remaining` of `total` left: rounds up, so the last
    /// pixel goes out as the snooze ends.
    public static func countdownLit(remaining: Duration, total: Duration, count: Int) -> Int {
        let r = max(0, remaining.nanoseconds)
        let t = max(1, total.nanoseconds)
        if r >= t { return count }
        return Int((Int64(count) * r + t - 1) / t)
    }

    // MARK: - Brightness

    /// The ring's brightness now, in linear light: full and throbbing while ringing, working
    /// brightness while something is happening or soon after a change, else the night glow.
    public func brightness(_ status: WatchStatus, at now: Instant, calmSince: Instant) -> Double {
        if status.alarm.kind == .ringing { return RingSettings.ringingBrightness * Self.throbLevel(at: now) }
        if Self.isBusy(status) || !settings.canSound || now < calmSince + settings.calmAfter { return settings.workingBrightness }
        return settings.nightBrightness
    }

    /// Something is happening: the ring stays at working brightness however long it lasts.
    public static func isBusy(_ status: WatchStatus) -> Bool {
        switch status.verdict {
        case .checking, .dragging: return true
        case .noAnchor, .holding, .cantJudge: break
        }
        switch status.alarm.kind {
        case .ringing, .snoozed: return true
        case .off, .armed: break
        }
        return !status.faults.isEmpty
    }

    /// The throb's level at `now`, quantized to `throbStep` so frames only change on its grid:
    /// a raised cosine from full brightness down to `throbFloor` and back.
    public static func throbLevel(at now: Instant) -> Double {
        let step = throbStep.nanoseconds
        let stepsPerPeriod = throbPeriod.nanoseconds / step
        let k = floorDiv(now.nanoseconds, step)
        let phase = Double(((k % stepsPerPeriod) + stepsPerPeriod) % stepsPerPeriod) / Double(stepsPerPeriod)
        let cosine = sineTurns(phase + 0.25)
        return min(1, throbFloor + (1 - throbFloor) * (0.5 + 0.5 * cosine))
    }

    // MARK: - When to draw again

    /// The first instant after `now` at which the frame would change with no change in the
    /// watch's status; nil if it never would. The loop sleeps until then: an idle ring wakes
    /// the box once (to settle to the night glow), a snooze once per pixel, only ringing often.
    public func nextFrameChange(_ status: WatchStatus, after now: Instant, calmSince: Instant) -> Instant? {
        var next: Instant?
        func consider(_ t: Instant) {
            if t > now, next.map({ t < $0 }) ?? true { next = t }
        }
        if status.alarm.kind == .ringing {
            let step = Self.throbStep.nanoseconds
            consider(Instant(nanoseconds: (floorDiv(now.nanoseconds, step) + 1) * step))
        }
        if case .snoozed(let until, _) = status.alarm {
            let n = layout.count
            let total = max(1, settings.snoozeLength.nanoseconds)
            let lit = Self.countdownLit(remaining: until - now, total: settings.snoozeLength, count: n)
            if lit > 0 {
                consider(Instant(nanoseconds: until.nanoseconds - Int64(lit - 1) * total / Int64(n)))
            }
        }
        if status.alarm.kind != .ringing, !Self.isBusy(status), settings.canSound,
           settings.workingBrightness != settings.nightBrightness {
            consider(calmSince + settings.calmAfter)
        }
        return next
    }
}

@inline(__always) func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
