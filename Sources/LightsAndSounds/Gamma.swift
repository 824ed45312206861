/// Gamma correction between the palette (sRGB-encoded, what a screen shows) and an LED (its PWM
/// duty is linear in light). A palette colour sent straight to an LED looks washed out and its
/// dim levels collapse; decoding it with the sRGB transfer function first keeps its hue.
///
/// Standard library only: x^2.4 is x^2 times the fifth root of x^2, found by Newton's method,
/// once per byte into a table.
public enum Gamma {
    /// Linear light, 0...1, for each sRGB byte (IEC 61966-2-1).
    public static let linear: [Double] = (0...255).map { byte in
        let c = Double(byte) / 255
        if c <= 0.040_45 { return c / 12.92 }
        let t = (c + 0.055) / 1.055
        return t * t * fifthRoot(t * t)
    }

    /// The LED drive level for one channel: decode sRGB, scale by `brightness` in linear light,
    /// round to 8 bits.
    public static func drive(_ srgb: UInt8, brightness: Double) -> UInt8 {
        let b = min(1, max(0, brightness))
        return UInt8((linear[Int(srgb)] * b * 255).rounded())
    }

    public static func drive(_ colour: RGB, brightness: Double) -> RGB {
        RGB(drive(colour.r, brightness: brightness), drive(colour.g, brightness: brightness),
            drive(colour.b, brightness: brightness))
    }

    /// The sRGB byte a screen needs to show an LED drive level (linear byte) as the same light:
    /// the inverse of the table, for the terminal and SVG pictures of a frame.
    public static func display(_ driveLevel: UInt8) -> UInt8 {
        let target = Double(driveLevel) / 255
        var lo = 0, hi = 255
        while lo < hi {
            let mid = (lo + hi) / 2
            if linear[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0, target - linear[lo - 1] < linear[lo] - target { return UInt8(lo - 1) }
        return UInt8(lo)
    }

    public static func display(_ frame: RGB) -> RGB {
        RGB(display(frame.r), display(frame.g), display(frame.b))
    }

    static func fifthRoot(_ a: Double) -> Double {
        guard a > 0 else { return 0 }
        var y = a < 1 ? 1.0 : a
        for _ in 0..<60 {
            let y4 = y * y * y * y
            let next = y - (y * y4 - a) / (5 * y4)
            if abs(next - y) <= 1e-15 * y { return next }
            y = next
        }
        return y
    }
}
