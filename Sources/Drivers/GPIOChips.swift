import CGPIOShim
import Posix

/// The real chips, through libgpiod: finds a line by name (on one chip or on every chip) or by
/// offset, and requests it for the box.
public final class GPIOChips: GPIOChipAccess {
    /// Where chip devices are listed when a line is named without its chip.
    let deviceDirectory: String
    /// The Pi's internal pull-up on inputs; false leaves the bias as it is, for boards with
    /// their own resistors (and for gpio-sim, where a bias would overwrite the simulated level).
    let pullUp: Bool

    public init(deviceDirectory: String = "/dev", pullUp: Bool = GPIOSettings.defaultPullUp) {
        self.deviceDirectory = deviceDirectory
        self.pullUp = pullUp
    }

    public func requestInput(_ address: GPIOLineAddress, consumer: String) throws(GPIOError) -> any GPIOInputLine {
        let (chip, offset) = try resolve(address)
        var handle: OpaquePointer?
        let rc = aa_gpio_request_input(chip, offset, consumer, pullUp ? 1 : 0, &handle)
        try GPIOLineRequest.check(rc, chip: chip, line: address.lineLabel)
        return GPIOLineRequest(handle: handle!, chip: chip, line: address.lineLabel)
    }

    public func requestOutput(_ address: GPIOLineAddress, consumer: String, high: Bool) throws(GPIOError) -> any GPIOOutputLine {
        let (chip, offset) = try resolve(address)
        var handle: OpaquePointer?
        let rc = aa_gpio_request_output(chip, offset, consumer, high ? 1 : 0, &handle)
        try GPIOLineRequest.check(rc, chip: chip, line: address.lineLabel)
        return GPIOLineRequest(handle: handle!, chip: chip, line: address.lineLabel)
    }

    /// The chip and offset of a line. A name without a chip is searched on every chip, in
    /// device order; a chip we may not open is remembered so that "not found" is not claimed
    /// when the truth is "not allowed to look".
    func resolve(_ address: GPIOLineAddress) throws(GPIOError) -> (chip: String, offset: UInt32) {
        switch address {
        case .offset(let offset, let chip):
            try GPIOLineRequest.check(aa_gpio_chip_check(chip), chip: chip, line: address.lineLabel)
            return (chip, offset)
        case .named(let name, let chip?):
            try GPIOLineRequest.check(aa_gpio_chip_check(chip), chip: chip, line: name)
            let offset = aa_gpio_find_line(chip, name)
            if Errno(negated: offset) == .notFound { throw .lineNotFound(line: name) }
            try GPIOLineRequest.check(offset, chip: chip, line: name)
            return (chip, UInt32(offset))
        case .named(let name, nil):
            let chips = chipDevices()
            guard !chips.isEmpty else { throw .chipMissing(chip: "on this board") }
            var refused: GPIOError?
            for chip in chips {
                let offset = aa_gpio_find_line(chip, name)
                if offset >= 0 { return (chip, UInt32(offset)) }
                if let e = Errno(negated: offset), e == .accessDenied || e == .notPermitted { refused = .permissionDenied(chip: chip) }
            }
            throw refused ?? .lineNotFound(line: name)
        }
    }

    /// Paths of the GPIO chip devices, in numeric order (gpiochip2 before gpiochip10).
    func chipDevices() -> [String] {
        var numbers: [Int] = []
        for name in (try? Files.list(deviceDirectory)) ?? [] {
            if name.hasPrefix("gpiochip"), let n = Int(name.dropFirst("gpiochip".count)) { numbers.append(n) }
        }
        return numbers.sorted().map { "\(deviceDirectory)/gpiochip\($0)" }
    }
}
