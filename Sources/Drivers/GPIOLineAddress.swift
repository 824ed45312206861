/// Where a line is, parsed once from configuration.
///
/// - `GPIO17`: the line named GPIO17 on whichever chip has it (a Pi names its header pins so, on
///   gpiochip0 for Pi 1 to 4 and on the RP1 chip of a Pi 5, whose number moved between kernels).
/// - `gpiochip0:GPIO17`: that name on that chip.
/// - `gpiochip0:17`: offset 17 on that chip (for boards whose lines have no names).
/// A chip is a device name under /dev or a path.
public enum GPIOLineAddress: Hashable, Sendable, CustomStringConvertible {
    case named(String, chip: String?)
    case offset(UInt32, chip: String)

    public init?(parsing text: String) {
        let text = String(text.filter { !$0.isWhitespace })
        guard !text.isEmpty else { return nil }
        guard let colon = text.lastIndex(of: ":") else {
            self = .named(text, chip: nil)
            return
        }
        let chip = String(text[..<colon])
        let line = String(text[text.index(after: colon)...])
        guard !chip.isEmpty, !line.isEmpty else { return nil }
        if line.allSatisfy(\.isASCII), line.allSatisfy(\.isNumber), let n = UInt32(line) {
            self = .offset(n, chip: chip)
        } else {
            self = .named(line, chip: chip)
        }
    }

    /// A line as the configuration gives it: `line` is a name, or an offset when all digits;
    /// `chip` is a device name or path, or "" or "any" to find a named line on every chip.
    public init?(chip: String, line: String) {
        let chip = String(chip.filter { !$0.isWhitespace })
        let line = String(line.filter { !$0.isWhitespace })
        guard !line.isEmpty else { return nil }
        let anyChip = chip.isEmpty || chip == "any"
        if line.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt32(line) {
            guard !anyChip else { return nil }
            self = .offset(n, chip: chip)
        } else {
            self = .named(line, chip: anyChip ? nil : chip)
        }
    }

    /// How a fault message names the line.
    public var lineLabel: String {
        switch self {
        case .named(let name, _): name
        case .offset(let n, let chip): "\(chip) line \(n)"
        }
    }

    public var description: String {
        switch self {
        case .named(let name, nil): name
        case .named(let name, let chip?): "\(chip):\(name)"
        case .offset(let n, let chip): "\(chip):\(n)"
        }
    }
}
