import Posix
import LightsAndSounds
/// An SVG picture of one frame, for Docs/ring.md: each pixel where it sits on the ring, in the
/// colour a screen needs to show its LED drive level as the same light (as `TerminalRing`), with
/// a soft glow, on the dark of a cabin at night. Generated from the renderer by the
/// RingPictureTests, never drawn by hand.
public enum RingPicture {
    public static func svg(_ frame: [RGB], layout: RingLayout, title: String, caption: String = "") -> String {
        let size = 240.0
        let centre = size / 2
        let radius = 84.0
        let n = max(1, frame.count)
        let dot = min(13.0, 0.36 * 2 * Double.pi * radius / Double(n))
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(size))" height="\(Int(size) + 50)" \
            viewBox="0 0 \(Int(size)) \(Int(size) + 50)">
            <defs><filter id="glow" x="-100%" y="-100%" width="300%" height="300%">\
            <feGaussianBlur stdDeviation="5"/></filter></defs>
            <rect width="100%" height="100%" rx="14" fill="#0B0D10"/>
            <circle cx="\(f(centre))" cy="\(f(centre))" r="\(f(radius))" fill="none" stroke="#1A1D22" stroke-width="\(f(2 * dot + 6))"/>

            """
        var glows = ""
        var dots = ""
        for (i, pixel) in frame.enumerated() {
            let t = layout.turns(ofPhysical: i)
            let x = centre + radius * sineTurns(t)
            let y = centre - radius * sineTurns(t + 0.25)
            if pixel == .black {
                dots += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(dot))\" fill=\"#15171B\" stroke=\"#2A2D33\"/>\n"
            } else {
                let hex = Gamma.display(pixel).hex
                glows += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(dot * 1.3))\" fill=\"\(hex)\" opacity=\"0.55\" filter=\"url(#glow)\"/>\n"
                dots += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(dot))\" fill=\"\(hex)\" stroke=\"#2A2D33\"/>\n"
            }
        }
        s += glows + dots
        s += "<text x=\"\(f(centre))\" y=\"\(f(size + 18))\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"15\" fill=\"#E6E6E6\">\(XMLText.escape(title))</text>\n"
        if !caption.isEmpty {
            s += "<text x=\"\(f(centre))\" y=\"\(f(size + 38))\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#9A9A9A\">\(XMLText.escape(caption))</text>\n"
        }
        return s + "</svg>\n"
    }

    /// One decimal, without Foundation's formatting.
    static func f(_ x: Double) -> String {
        let n = Int((x * 10).rounded())
        let sign = n < 0 ? "-" : ""
        return "\(sign)\(abs(n) / 10).\(abs(n) % 10)"
    }
}
