import Drivers
import LightsAndSounds
import WatchCore

/// The demo's terminal: the ring in its real colours, the words beside it, and a log of what
/// happened. On a terminal it redraws in place; piped, it prints one line per event.
final class DemoScreen: Part, BoxObserver {
    var shown: BoxObserver? { self }
    private let tty: Bool
    private let speed: Double
    private var log: [String] = []
    private var scriptTime = 0.0
    private var buzzerOn = false
    /// The ring exactly as the renderer computes it for the box's LED ring.
    private var presenter: RingPresenter

    init(tty: Bool, speed: Double, ring: RingSettings) {
        self.tty = tty
        self.speed = speed
        presenter = RingPresenter(settings: ring, start: .zero)
    }

    func activity(at now: Instant) { presenter.activity(at: now) }

    func clock(_ t: Double) { scriptTime = t }

    func buzzer(_ on: Bool) { buzzerOn = on }

    func say(_ line: String) {
        let entry = "\(Self.hms(scriptTime))  \(line)"
        log.append(entry)
        if log.count > 9 { log.removeFirst(log.count - 9) }
        if !tty { print(entry) }
    }

    func show(_ status: WatchStatus, now: Instant) {
        _ = presenter.update(status, at: now)
        guard tty else { return }
        var out = "\u{1B}[H\u{1B}[2J"
        out += "  Anchor Alert demo, \(Int(speed))x time    night clock \(Self.hms(scriptTime))\n\n"
        let ringLines = presenter.shown.map { TerminalRing.lines($0, layout: presenter.renderer.layout) } ?? []
        let words = Self.words(status, now: now, buzzer: buzzerOn)
        for i in 0..<max(ringLines.count, words.count) {
            let left = i < ringLines.count ? ringLines[i] : ""
            let pad = String(repeating: " ", count: max(0, 24 - Self.visibleWidth(left)))
            out += "  " + left + pad + (i < words.count ? words[i] : "") + "\n"
        }
        out += "\n  What happened:\n"
        for line in log { out += "    \(line)\n" }
        print(out, terminator: "")
    }

    /// The throb of a ringing alarm is drawn too: the screen redraws when the ring would.
    func nextDeadline(now: Instant) -> Instant? { tty ? presenter.nextFrameChange(after: now) : nil }

    static func words(_ s: WatchStatus, now: Instant, buzzer: Bool) -> [String] {
        var w: [String] = []
        let distance = s.distance.map { "  \($0)" } ?? ""
        var verdict = Words.verdict(s.verdict.kind)
        if case .checking(let p) = s.verdict { verdict += " \(Int((p * 100).rounded()))%" }
        if case .cantJudge(let why) = s.verdict { verdict += ": \(Words.cantJudge(why))" }
        w.append("\u{1B}[1m\(verdict)\(distance)\u{1B}[0m")
        w.append("Alert radius: \(s.radius)")
        w.append("\(Words.alarm(s.alarm, now: now)). \(s.wontRing)")
        let accuracy = s.accuracy.map { "±\(Int($0.value.rounded())) m" } ?? "no accuracy"
        let age = s.readingAge.map { $0.seconds < 2 ? "just now" : "\(Int($0.seconds)) s ago" } ?? "none yet"
        w.append("GPS \(accuracy) · \(age)")
        if let offer = s.swingOffer {
            w.append(offer.says)
        } else if let e = s.swing, e.steady, let anchor = s.anchor {
            w.append("Swing: its centre is \(Geodesy.distance(anchor, e.centre)) from the mark")
        }
        for f in s.faults { w.append("Fault: \(f.message)") }
        w.append(buzzer ? "Buzzer: \u{1B}[1mBZZT\u{1B}[0m" : "Buzzer: quiet")
        return w
    }

    static func hms(_ t: Double) -> String {
        let s = Int(t)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
    }

    /// Width on screen, not counting ANSI escape sequences.
    static func visibleWidth(_ s: String) -> Int {
        var n = 0
        var escape = false
        for c in s.unicodeScalars {
            if escape { if c == "m" { escape = false }; continue }
            if c == "\u{1B}" { escape = true; continue }
            n += 1
        }
        return n
    }
}
