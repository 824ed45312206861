#if canImport(Glibc)
import Glibc
#endif
import WatchCore
import XCTest

/// A gpio-sim chip inside the test VM, made and read through `../shared/vm/gpio-sim-chip.sh` and
/// sysfs: the test's hand on the switch (pull) and its ear on the buzzer (value).
struct GPIOSim {
    let name: String
    let chip: String
    let sysfs: String
    let lines: [String]

    /// Where the helper is: `GPIO_SIM_HELPER`, or `shared/vm` beside the repository (CI's
    /// layout) or beside the worktrees' folder (a developer's).
    static var helper: String {
        if let h = getenv("GPIO_SIM_HELPER") { return String(cString: h) }
        let repo = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let candidates = ["\(repo)/../shared/vm/gpio-sim-chip.sh", "\(repo)/../../shared/vm/gpio-sim-chip.sh"]
        return candidates.first { access($0, R_OK) == 0 } ?? candidates[0]
    }

    /// Throws XCTSkip, with the reason printed, outside the VM: the host kernel has no GPIO.
    static func requireVM() throws {
        guard getenv("IN_VM") != nil else {
            let reason = "not inside the test VM (IN_VM unset): this kernel has no GPIO; scripts/test-gpio.sh runs these inside the VM"
            print("GPIO sim tests skipped: \(reason)")
            throw XCTSkip(reason)
        }
    }

    init(name: String, lines: [String]) throws {
        self.name = name
        self.lines = lines
        let (status, out) = shell("\(Self.helper) create \(name) \(lines.joined(separator: " "))")
        guard status == 0, out.hasPrefix("gpiochip") else {
            throw GPIOSimError("gpio-sim: could not create chip \(name): status \(status): \(out)")
        }
        chip = out
        sysfs = shell("\(Self.helper) sysfs \(name)").output
    }

    func remove() { _ = shell("\(Self.helper) remove \(name)") }

    private func file(_ line: String, _ attribute: String) -> String {
        "\(sysfs)/sim_gpio\(lines.firstIndex(of: line)!)/\(attribute)"
    }

    /// Sets the level the consumer reads on an input: what a switch or button does.
    func pull(_ line: String, high: Bool) {
        let fd = open(file(line, "pull"), O_WRONLY)
        precondition(fd >= 0, "gpio-sim pull file for \(line)")
        let text = high ? "pull-up" : "pull-down"
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }

    /// The level the consumer drives on an output: what the buzzer hears.
    func value(_ line: String) -> Int {
        let fd = open(file(line, "value"), O_RDONLY)
        precondition(fd >= 0, "gpio-sim value file for \(line)")
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 8)
        let n = read(fd, &buf, 8)
        return n > 0 && buf[0] == UInt8(ascii: "1") ? 1 : 0
    }

    func offset(_ line: String) -> Int { lines.firstIndex(of: line)! }
}

struct GPIOSimError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Runs a shell command, returns its status and its output without the trailing newline.
@discardableResult
func shell(_ command: String) -> (status: Int32, output: String) {
    guard let p = popen(command + " 2>&1", "r") else { return (-1, "") }
    var out = [UInt8]()
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buf, 1, buf.count, p)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    let status = pclose(p)
    var s = String(decoding: out, as: UTF8.self)
    while s.hasSuffix("\n") { s.removeLast() }
    return ((status >> 8) & 0xff, s)
}

/// The loop's clock.
func monotonicNow() -> Instant {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Instant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
}
