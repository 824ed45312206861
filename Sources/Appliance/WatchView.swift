import LightsAndSounds
import WatchCore

/// What `anchor-alert watch` draws: the ring as the box shows it (the same renderer and the
/// same terminal drawing as the demo) beside the status lines `anchor-alert status` prints.
/// Pure: the command reads the snapshot and the terminal, this makes the lines.
enum WatchView {
    struct Style: Hashable, Sendable {
        /// ANSI colour; off for `TERM=dumb`, `NO_COLOR` or a pipe.
        var colour: Bool
        var width: Int
    }

    /// The ring's width in columns (TerminalRing's circle for 12 pixels) and the gap after it.
    static let ringColumns = 17
    static let gap = 3
    /// Narrower than this for the words beside the ring, the words go under it.
    static let sideBySideWords = 36

    static func frame(_ reading: SnapshotReading, now: WallTime, style: Style, ring: RingSettings = RingSettings()) -> [String] {
        var words = StatusCommand.lines(reading, now: now, directory: "")
        if case .missing = reading { words = ["Box not running: no status to show"] }
        var pixels = [RGB](repeating: .black, count: ring.pixelCount)
        if case .current(let s) = reading {
            // The working brightness (never the night's calm dimming): this is a screen. What
            // can sound is the box's, not this reader's configuration.
            let status = watchStatus(s, now: now)
            var settings = ring
            settings.canSound = s.canSound
            pixels = RingRenderer(settings: settings).frame(status, at: .zero, calmSince: .zero)
        }
        let ringLines = TerminalRing.lines(pixels, layout: RingRenderer(settings: ring).layout, colour: style.colour, bright: true)
        let ringWidth = ringLines.map(DemoScreen.visibleWidth).max() ?? 0
        var out = ["Anchor Alert"]
        out.append("")
        let beside = style.width - 2 - ringWidth - gap
        if beside >= sideBySideWords {
            let wrapped = words.enumerated().flatMap { i, w in
                wrap(w, width: beside).map { i == 0 ? paint($0, reading, style) : $0 }
            }
            for i in 0..<max(ringLines.count, wrapped.count) {
                let left = i < ringLines.count ? ringLines[i] : ""
                let right = i < wrapped.count ? wrapped[i] : ""
                let pad = String(repeating: " ", count: max(0, ringWidth - DemoScreen.visibleWidth(left)) + gap)
                out.append(trimmed("  " + left + pad + right))
            }
        } else {
            out += ringLines.map { "  " + $0 }
            out.append("")
            for (i, w) in words.enumerated() {
                out += wrap(w, width: max(style.width, 8)).map { i == 0 ? paint($0, reading, style) : $0 }
            }
        }
        return out
    }

    private static func trimmed(_ s: String) -> String {
        var s = s
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }

    /// The verdict's line in a colour bright enough for a dark theme (the 16-colour bright set,
    /// which every terminal theme keeps legible), bold. A box that can't sound the alarm says
    /// so on the first line, in the alarm's red.
    static func paint(_ line: String, _ reading: SnapshotReading, _ style: Style) -> String {
        guard style.colour else { return line }
        var code = "97"
        if case .current(let s) = reading, !s.canSound {
            code = "91"
        } else if case .current(let s) = reading {
            switch s.position.verdict {
            case .holding: code = "92"
            case .checking: code = "93"
            case .dragging: code = "91"
            case .noAnchor: code = "94"
            case .cantJudge: code = "97"
            }
        } else {
            code = "93"
        }
        return "\u{1B}[1;\(code)m\(line)\u{1B}[0m"
    }

    /// Breaks a line at spaces so no piece is wider than `width`; a word longer than the width
    /// stands alone on its line rather than being cut. Continuation lines are indented.
    static func wrap(_ line: String, width: Int) -> [String] {
        guard line.count > width else { return [line] }
        var out: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let prefix = out.isEmpty ? "" : "  "
            if current.isEmpty {
                current = word
            } else if prefix.count + current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                out.append(prefix + current)
                current = word
            }
        }
        if !current.isEmpty || out.isEmpty { out.append((out.isEmpty ? "" : "  ") + current) }
        return out
    }

    /// The watch's status as the snapshot says it, for the ring renderer; times relative to
    /// `now` at `Instant.zero`.
    static func watchStatus(_ s: StatusSnapshot, now: WallTime) -> WatchStatus {
        let verdict: PositionVerdict
        switch s.position.verdict {
        case .noAnchor: verdict = .noAnchor
        case .holding: verdict = .holding
        case .checking: verdict = .checking(progress: s.position.progress ?? 0)
        case .dragging: verdict = .dragging
        case .cantJudge: verdict = .cantJudge(s.position.cantJudge ?? .stale)
        }
        let alarm: AlarmState
        switch s.alarm.state {
        case .off: alarm = .off
        case .armed: alarm = .armed
        case .ringing: alarm = .ringing(episode: s.alarm.episode ?? 1)
        case .snoozed: alarm = .snoozed(until: .zero + ((s.alarm.snoozedUntil ?? now) - now), episode: s.alarm.episode ?? 1)
        }
        return WatchStatus(
            verdict: verdict, alarm: alarm, anchor: s.anchor, radius: s.radius, distance: s.distance,
            readingAge: s.gps.readingAt.map { now - $0 }, accuracy: s.gps.accuracy, wontRing: s.wontRing,
            faults: s.faults, faultSounding: s.faultSounding)
    }
}
