import Posix
import WatchCore

/// A night as one SVG picture: the anchor, the alert circle, the track in a quiet colour, where
/// it rang, a scale bar and north. North up, meters to pixels in the tangent plane at the
/// anchor (the same plane the watch measures in). Colours are the palette's roles.
enum SVGWriter {
    /// The design system's roles (seed 001, Colour). The track is quiet on purpose: red is
    /// only for where it rang.
    enum Palette {
        static let page = "#15141a"
        static let chrome = "#373340"
        static let ink = "#e8e6ee"
        static let quiet = "#8c93a3"
        static let holding = "#1C7B5A"
        static let danger = "#A1281B"
        static let dangerOnChrome = "#D93A2B"
        static let neutral = "#5B9BD5"
    }

    static let width = 640.0
    static let plot = 560.0
    static let top = 70.0

    static func svg(_ night: NightTrack) -> String {
        let fixes = night.segments.flatMap { $0 }
        let origin = night.anchor ?? Geodesy.mean(fixes.map(\.position)) ?? fixes[0].position
        func local(_ c: Coordinate) -> (Double, Double) { Geodesy.offset(from: origin, to: c) }

        // The box around everything drawn (the track and the whole circle), centred, with air.
        let r = night.anchor == nil ? 0 : night.radius?.value ?? 0
        var minE = -r, maxE = r, minN = -r, maxN = r
        for f in fixes {
            let (e, n) = local(f.position)
            minE = min(minE, e); maxE = max(maxE, e); minN = min(minN, n); maxN = max(maxN, n)
        }
        let reach = max(max(maxE - minE, maxN - minN) / 2 * 1.1, 10)
        let midE = (minE + maxE) / 2, midN = (minN + maxN) / 2
        let scale = (plot / 2) / reach
        let cx = width / 2, cy = top + plot / 2
        func px(_ c: Coordinate) -> (Double, Double) {
            let (e, n) = local(c)
            return (cx + (e - midE) * scale, cy - (n - midN) * scale)
        }
        let (ax, ay) = (cx - midE * scale, cy + midN * scale)
        let height = top + plot + 100
        let rang = !night.rings.isEmpty

        var s = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))" \
        font-family="DejaVu Sans, Helvetica, Arial, sans-serif">

        """
        s += "  <title>\(XMLText.escape(night.title))</title>\n"
        s += "  <rect width=\"100%\" height=\"100%\" fill=\"\(Palette.page)\"/>\n"
        s += "  <rect x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"50\" fill=\"\(Palette.chrome)\"/>\n"
        s += "  <text x=\"20\" y=\"32\" font-size=\"18\" fill=\"\(Palette.ink)\">\(XMLText.escape(night.title))</text>\n"

        if let r = night.radius, night.anchor != nil {
            let ring = rang ? Palette.danger : Palette.holding
            s += "  <circle cx=\"\(n(ax))\" cy=\"\(n(ay))\" r=\"\(n(r.value * scale))\" fill=\"\(ring)\" fill-opacity=\"0.12\" "
            s += "stroke=\"\(ring)\" stroke-width=\"4\"/>\n"
        }

        for segment in night.segments {
            let points = segment.map { p -> String in
                let (x, y) = px(p.position)
                return "\(n(x)),\(n(y))"
            }.joined(separator: " ")
            s += "  <polyline points=\"\(points)\" fill=\"none\" stroke=\"\(Palette.quiet)\" stroke-width=\"1.5\" "
            s += "stroke-linejoin=\"round\" stroke-opacity=\"0.85\"/>\n"
        }
        if let first = fixes.first, let last = fixes.last {
            let (x0, y0) = px(first.position)
            let (x1, y1) = px(last.position)
            s += "  <circle cx=\"\(n(x0))\" cy=\"\(n(y0))\" r=\"4\" fill=\"none\" stroke=\"\(Palette.ink)\" stroke-width=\"1.5\"/>\n"
            s += "  <circle cx=\"\(n(x1))\" cy=\"\(n(y1))\" r=\"4\" fill=\"\(Palette.ink)\"/>\n"
        }

        if night.anchor != nil { s += anchorGlyph(x: ax, y: ay) }

        // Each alarm's label moves down past any label already placed: alarms close in place
        // (the boat rang, was snoozed and rang again) would otherwise print over each other.
        var placed: [Box] = []
        for (i, ring) in night.rings.enumerated() {
            guard let p = ring.position else { continue }
            let (x, y) = px(p)
            s += "  <circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"7\" fill=\"\(Palette.dangerOnChrome)\" stroke=\"\(Palette.ink)\" stroke-width=\"1.5\"/>\n"
            let label = GPXWriter.alarmName(i, ring)
            let right = x < width - 140
            let w = labelWidth(label)
            var box = Box(x: right ? x + 12 : x - 12 - w, y: y + 5 - 14, width: w, height: 18)
            while placed.contains(where: { $0.overlaps(box) }) { box.y += 18 }
            placed.append(box)
            s += "  <text x=\"\(n(right ? x + 12 : x - 12))\" y=\"\(n(box.y + 14))\" font-size=\"14\" fill=\"\(Palette.ink)\""
            s += right ? ">" : " text-anchor=\"end\">"
            s += "\(label)</text>\n"
        }

        // North.
        s += "  <path d=\"M \(n(width - 40)) \(n(top + 30)) l 8 18 l -8 -5 l -8 5 z\" fill=\"\(Palette.ink)\"/>\n"
        s += "  <text x=\"\(n(width - 40))\" y=\"\(n(top + 22))\" font-size=\"14\" fill=\"\(Palette.ink)\" text-anchor=\"middle\">N</text>\n"

        // Scale bar: a round length near a quarter of the plot.
        let bar = roundLength(reach / 2)
        let barPx = bar * scale
        let by = top + plot + 30
        s += "  <path d=\"M 20 \(n(by - 6)) v 6 h \(n(barPx)) v -6\" fill=\"none\" stroke=\"\(Palette.neutral)\" stroke-width=\"2\"/>\n"
        s += "  <text x=\"\(n(20 + barPx + 10))\" y=\"\(n(by + 4))\" font-size=\"14\" fill=\"\(Palette.neutral)\">\(FixedPoint.fixed(bar, 0)) m</text>\n"

        var caption: [String] = []
        if let r = night.radius { caption.append("Alert radius: \(r)") }
        caption.append(rang ? "rang \(night.rings.count == 1 ? "once" : "\(night.rings.count) times")" : "held")
        caption.append("\(night.fixCount) GPS readings")
        s += "  <text x=\"\(n(width - 20))\" y=\"\(n(by + 4))\" font-size=\"14\" fill=\"\(Palette.ink)\" text-anchor=\"end\">"
        s += "\(XMLText.escape(caption.joined(separator: ", ")))</text>\n"

        // The key: what the track's two ends and the red dots mean.
        if let first = fixes.first, let last = fixes.last {
            let ky = by + 32
            s += "  <circle cx=\"26\" cy=\"\(n(ky - 5))\" r=\"4\" fill=\"none\" stroke=\"\(Palette.ink)\" stroke-width=\"1.5\"/>\n"
            s += "  <text x=\"36\" y=\"\(n(ky))\" font-size=\"14\" fill=\"\(Palette.ink)\">Track starts \(first.at.clock)</text>\n"
            s += "  <circle cx=\"206\" cy=\"\(n(ky - 5))\" r=\"4\" fill=\"\(Palette.ink)\"/>\n"
            s += "  <text x=\"216\" y=\"\(n(ky))\" font-size=\"14\" fill=\"\(Palette.ink)\">Track ends \(last.at.clock)</text>\n"
            if rang {
                s += "  <circle cx=\"376\" cy=\"\(n(ky - 5))\" r=\"6\" fill=\"\(Palette.dangerOnChrome)\" stroke=\"\(Palette.ink)\" stroke-width=\"1.5\"/>\n"
                s += "  <text x=\"388\" y=\"\(n(ky))\" font-size=\"14\" fill=\"\(Palette.ink)\">Where the alarm rang</text>\n"
            }
        }
        s += "</svg>\n"
        return s
    }

    /// An anchor drawn with strokes (no font has to carry a glyph): ring, shank, stock, arms.
    static func anchorGlyph(x: Double, y: Double) -> String {
        let c = Palette.ink
        return """
          <g fill="none" stroke="\(c)" stroke-width="2.2" stroke-linecap="round">
            <circle cx="\(n(x))" cy="\(n(y - 11))" r="3"/>
            <path d="M \(n(x)) \(n(y - 8)) V \(n(y + 11))"/>
            <path d="M \(n(x - 6)) \(n(y - 3)) H \(n(x + 6))"/>
            <path d="M \(n(x - 10)) \(n(y + 3)) Q \(n(x - 9)) \(n(y + 12)) \(n(x)) \(n(y + 11)) Q \(n(x + 9)) \(n(y + 12)) \(n(x + 10)) \(n(y + 3))"/>
          </g>

        """
    }

    /// A label's place on the picture, to keep labels apart.
    struct Box: Equatable {
        var x, y, width, height: Double
        func overlaps(_ o: Box) -> Bool {
            x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
        }
    }

    /// A 14 px label's width, generously: DejaVu Sans averages under 0.62 em a character.
    static func labelWidth(_ text: String) -> Double { Double(text.count) * 14 * 0.62 }

    /// 1, 2 or 5 times a power of ten, at most `x`.
    static func roundLength(_ x: Double) -> Double {
        var p = 1.0
        while p * 10 <= x { p *= 10 }
        while p > x && p > 1 { p /= 10 }
        for k in [5.0, 2.0, 1.0] where k * p <= x { return k * p }
        return p
    }

    static func n(_ x: Double) -> String { FixedPoint.fixed(x, 1) }
}
