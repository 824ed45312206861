/// A frame drawn in a terminal with 24-bit colour: the ring's pixels laid out as a circle on a
/// few text lines, for the demo. It draws the frame it is given, pixel for pixel, so what the
/// demo shows is what the renderer sent to the ring: each LED drive level (linear light) is
/// shown as the sRGB colour a screen needs for the same light. An unlit pixel is a dim dot.
public enum TerminalRing {
    /// The text lines, with ANSI colour (SGR 38;2) on each lit pixel. `bright` shows each lit
    /// pixel at its colour's full level rather than the ring's dimmed drive level, for reading
    /// on a laptop screen with a dark theme (`anchor-alert watch`).
    public static func lines(_ frame: [RGB], layout: RingLayout, colour: Bool = true, bright: Bool = false) -> [String] {
        let n = frame.count
        let rows = max(5, (n / 3) | 1)
        let ry = Double(rows - 1) / 2
        // Terminal cells are about twice as tall as wide.
        let rx = 2 * ry
        let cols = Int(2 * rx) + 1
        var grid = Array(repeating: Array(repeating: " ", count: cols), count: rows)
        for (i, pixel) in frame.enumerated() {
            let t = layout.turns(ofPhysical: i)
            let x = Int((rx + rx * sineTurns(t)).rounded())
            let y = Int((ry - ry * sineTurns(t + 0.25)).rounded())
            grid[y][x] = cell(bright ? full(pixel) : pixel, colour: colour)
        }
        return grid.map { row in
            var line = row.joined()
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    public static func render(_ frame: [RGB], layout: RingLayout, colour: Bool = true) -> String {
        lines(frame, layout: layout, colour: colour).joined(separator: "\n")
    }

    /// The same colour with its largest channel at full drive.
    static func full(_ pixel: RGB) -> RGB {
        let top = max(pixel.r, pixel.g, pixel.b)
        guard top > 0 else { return pixel }
        func scale(_ c: UInt8) -> UInt8 { UInt8((Int(c) * 255 + Int(top) / 2) / Int(top)) }
        return RGB(scale(pixel.r), scale(pixel.g), scale(pixel.b))
    }

    static func cell(_ pixel: RGB, colour: Bool) -> String {
        guard pixel != .black else { return colour ? "\u{1B}[38;2;70;70;70m·\u{1B}[0m" : "·" }
        guard colour else { return "●" }
        let d = Gamma.display(pixel)
        return "\u{1B}[38;2;\(d.r);\(d.g);\(d.b)m●\u{1B}[0m"
    }
}
