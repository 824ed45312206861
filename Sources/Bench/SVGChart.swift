import Posix
/// Hand-written SVG charts: horizontal bars with optional whisker marks, one row per rule and
/// one colour per series. Plain SVG 1.1, readable by any browser and by rsvg-convert.
struct SVGChart {
    struct Series {
        var name: String
        var colour: String
        /// One value per row (nil: no bar); optional marks drawn as ticks (p95) and dots (worst).
        var values: [Double?]
        var ticks: [Double?] = []
        var dots: [Double?] = []
    }

    var title: String
    var axis: String
    var rows: [String]
    var series: [Series]
    var note: String = ""

    func render() -> String {
        let labelWidth = 300.0, plotWidth = 520.0, barHeight = 12.0, gap = 6.0
        let groupHeight = Double(series.count) * barHeight + gap * 2
        let top = 56.0
        let height = top + groupHeight * Double(rows.count) + 70
        let width = labelWidth + plotWidth + 40
        var maxValue = 0.0
        for s in series { for v in s.values + s.ticks + s.dots { if let v { maxValue = max(maxValue, v) } } }
        let scaleMax = niceCeiling(max(maxValue, 1))
        func x(_ v: Double) -> Double { labelWidth + max(0, min(v, scaleMax)) / scaleMax * plotWidth }
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="#ffffff"/>
        <text x="12" y="22" font-size="15" font-weight="bold">\(XMLText.escape(title))</text>
        <text x="12" y="40" fill="#555555">\(XMLText.escape(note))</text>

        """
        // Grid.
        for k in 0...5 {
            let v = scaleMax * Double(k) / 5
            let gx = x(v)
            svg += "<line x1=\"\(f(gx))\" y1=\"\(f(top))\" x2=\"\(f(gx))\" y2=\"\(f(top + groupHeight * Double(rows.count)))\" stroke=\"#dddddd\"/>\n"
            svg += "<text x=\"\(f(gx))\" y=\"\(f(top + groupHeight * Double(rows.count) + 16))\" text-anchor=\"middle\" fill=\"#333333\">\(Format.fixed(v, v < 10 && scaleMax < 10 ? 1 : 0))</text>\n"
        }
        svg += "<text x=\"\(f(labelWidth + plotWidth / 2))\" y=\"\(f(top + groupHeight * Double(rows.count) + 34))\" text-anchor=\"middle\">\(XMLText.escape(axis))</text>\n"
        for (r, row) in rows.enumerated() {
            let y0 = top + groupHeight * Double(r)
            svg += "<text x=\"\(f(labelWidth - 8))\" y=\"\(f(y0 + groupHeight / 2 + 4))\" text-anchor=\"end\">\(XMLText.escape(row))</text>\n"
            for (i, s) in series.enumerated() {
                let y = y0 + gap + Double(i) * barHeight
                if r < s.values.count, let v = s.values[r] {
                    svg += "<rect x=\"\(f(labelWidth))\" y=\"\(f(y))\" width=\"\(f(max(x(v) - labelWidth, 1)))\" height=\"\(f(barHeight - 2))\" fill=\"\(s.colour)\"/>\n"
                } else {
                    svg += "<text x=\"\(f(labelWidth + 4))\" y=\"\(f(y + barHeight - 3))\" font-size=\"10\" fill=\"#888888\">n/a</text>\n"
                }
                if r < s.ticks.count, let v = s.ticks[r] {
                    svg += "<line x1=\"\(f(x(v)))\" y1=\"\(f(y - 1))\" x2=\"\(f(x(v)))\" y2=\"\(f(y + barHeight - 1))\" stroke=\"#000000\" stroke-width=\"2\"/>\n"
                }
                if r < s.dots.count, let v = s.dots[r] {
                    svg += "<circle cx=\"\(f(x(v)))\" cy=\"\(f(y + barHeight / 2 - 1))\" r=\"3\" fill=\"none\" stroke=\"#000000\"/>\n"
                    if v > scaleMax { svg += "<text x=\"\(f(x(v) + 5))\" y=\"\(f(y + barHeight - 3))\" font-size=\"10\">\(Format.fixed(v))</text>\n" }
                }
            }
        }
        // Legend.
        var lx = labelWidth
        let ly = height - 18
        for s in series {
            svg += "<rect x=\"\(f(lx))\" y=\"\(f(ly - 10))\" width=\"12\" height=\"10\" fill=\"\(s.colour)\"/><text x=\"\(f(lx + 16))\" y=\"\(f(ly))\">\(XMLText.escape(s.name))</text>\n"
            lx += 28 + Double(s.name.count) * 6.5
        }
        if series.contains(where: { !$0.ticks.isEmpty }) {
            svg += "<text x=\"12\" y=\"\(f(ly))\" fill=\"#333333\">bar: median, tick: 95th pct, ring: worst</text>\n"
        }
        svg += "</svg>\n"
        return svg
    }

    private func f(_ v: Double) -> String { Format.fixed(v, 1) }

    private func niceCeiling(_ v: Double) -> Double {
        var step = 1.0
        while step * 10 < v { step *= 10 }
        for m in [1.0, 2, 2.5, 5, 10] where m * step >= v { return m * step }
        return 10 * step
    }
}
