/// Fixed-point decimals without Foundation's String(format:): "12.30", "-0.5". The one
/// formatter of the box's surfaces and benchmarks (WatchCore keeps its own, standard library only).
public enum FixedPoint {
    public static func fixed(_ x: Double, _ digits: Int) -> String {
        guard x.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let n = Int64((abs(x) * scale).rounded())
        let whole = n / Int64(scale)
        var frac = String(n % Int64(scale))
        while frac.count < digits { frac = "0" + frac }
        return (x < 0 && n != 0 ? "-" : "") + "\(whole)" + (digits > 0 ? "." + frac : "")
    }
}

/// Text for XML and SVG (GPX, the ring picture, charts): `&`, `<`, `>` and `"`, escaped for
/// content and double-quoted attribute values alike.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
