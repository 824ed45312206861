/// The design system's colour roles, as the ring uses them. Every colour the ring shows is one
/// of these; nothing hands the renderer a raw colour.
///
/// Conflicts the design system lists, and what the ring builds to:
/// - Two classifiers: the ring's colour reads the position only; the alarm changes the ring's
///   shape and its throb, never its colour ("Alarm off" is green when holding).
/// - "Can't judge" was three greys: here it is one, `cantJudge`.
/// - "No anchor" is grey in the state table, but grey means "can't judge" on the ring, so with
///   nothing at stake the ring takes `neutral` blue, the role for "commits you to nothing".
public enum PaletteRole: String, Hashable, Sendable, CaseIterable {
    /// #1C7B5A: the brand, and the state the box is in all night.
    case holding
    /// #F5A524: worth a look, nothing on fire (checking, its fill).
    case attention
    /// #A1281B: dragging, the alarm.
    case danger
    /// #5B9BD5: link blue; nothing at stake (no anchor).
    case neutral
    /// #8E8E93 (the system grey): the one grey for "can't judge".
    case cantJudge = "cant_judge"
    /// #D93A2B (dangerOnChrome, the failing Systems Check shield): the ring's fault marker.
    case fault

    /// The role's colour as the palette gives it: sRGB, 8 bits per channel, before gamma.
    public var sRGB: RGB {
        switch self {
        case .holding: RGB(0x1C, 0x7B, 0x5A)
        case .attention: RGB(0xF5, 0xA5, 0x24)
        case .danger: RGB(0xA1, 0x28, 0x1B)
        case .neutral: RGB(0x5B, 0x9B, 0xD5)
        case .cantJudge: RGB(0x8E, 0x8E, 0x93)
        case .fault: RGB(0xD9, 0x3A, 0x2B)
        }
    }

    /// "#1C7B5A", for docs and pictures.
    public var hex: String { sRGB.hex }
}

extension RGB {
    /// "#RRGGBB".
    public var hex: String {
        let digits = Array("0123456789ABCDEF")
        var s = "#"
        for v in [r, g, b] {
            s.append(digits[Int(v >> 4)])
            s.append(digits[Int(v & 0xF)])
        }
        return s
    }
}
