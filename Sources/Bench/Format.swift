import Posix

/// Number formatting without Foundation: fixed decimals, and padding for text tables.
enum Format {
    static func fixed(_ x: Double, _ digits: Int = 0) -> String { FixedPoint.fixed(x, digits) }

    static func optional(_ x: Double?, _ digits: Int = 0) -> String { x.map { fixed($0, digits) } ?? "-" }

    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let n = s.count
        guard n < width else { return s }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + s : s + fill
    }

    /// A Markdown table, columns padded so it reads in a terminal too. The first column is
    /// left-aligned, the others right-aligned.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { pad($0.element, widths[$0.offset], right: $0.offset > 0) }.joined(separator: " | ") + " |"
        }
        var out = line(header) + "\n"
        out += "|" + widths.enumerated().map { ($0.offset > 0 ? " " : ":") + String(repeating: "-", count: $0.element) + ($0.offset > 0 ? ":" : " ") }.joined(separator: "|") + "|\n"
        for r in rows { out += line(r) + "\n" }
        return out
    }
}
