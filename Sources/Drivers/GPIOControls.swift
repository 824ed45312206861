import Posix
import WatchCore

/// The arm switch and the button: two input lines (pull-up, both edges) that the loop polls.
/// Emits the debounced switch position as `.armSwitch(on:)` (once at start: the position at
/// boot is a decision), each classified press as `.button(_)`, and `.faultRaised`/`.faultCleared`
/// when a line cannot be used or comes back. A line that failed is tried again every
/// `settings.retry`; the other line works on meanwhile.
public final class GPIOControls: Pollable {
    private final class Channel {
        let role: GPIORole
        let address: GPIOLineAddress
        var line: (any GPIOInputLine)?
        var debouncer: Debouncer
        var failure: GPIOError?
        var retryAt: Instant?
        init(role: GPIORole, address: GPIOLineAddress, settle: Duration) {
            self.role = role
            self.address = address
            self.debouncer = Debouncer(settle: settle)
        }
    }

    /// Edges read per line per turn at most (16 per read): the loop comes back for the rest.
    private static let maxReadsPerTurn = 4

    private let chips: any GPIOChipAccess
    private let settings: GPIOSettings
    private let channels: [Channel]
    private var presses: PressClassifier

    public init(settings: GPIOSettings = GPIOSettings(), chips: any GPIOChipAccess = GPIOChips()) {
        self.settings = settings
        self.chips = chips
        self.channels = [
            Channel(role: .armSwitch, address: settings.armSwitch, settle: settings.settle),
            Channel(role: .button, address: settings.button, settle: settings.settle),
        ].filter { settings.fitted.contains($0.role) }
        self.presses = PressClassifier(thresholds: settings.press)
    }

    deinit { shutdown() }

    /// Requests both lines (those fitted) and reports where the switch is, or why a line can't be used.
    public func start(now: Instant) -> [Event] {
        channels.flatMap { open($0, now: now) }
    }

    /// Gives both lines back to the kernel. Nothing is emitted after this.
    public func shutdown() {
        for c in channels {
            c.line = nil
            c.retryAt = nil
        }
    }

    /// True when the line of `role` is held and working.
    public func isWorking(_ role: GPIORole) -> Bool { channels.contains { $0.role == role && $0.line != nil } }

    public func pollRequests() -> [PollDescriptor] {
        channels.compactMap { c in c.line.map { PollDescriptor(fd: $0.fd, wanted: PollEvents.readable) } }
    }

    public func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        var out: [Event] = []
        for c in channels {
            guard let line = c.line, ready.contains(where: { $0.fd == line.fd }) else { continue }
            do throws(GPIOError) {
                for _ in 0..<Self.maxReadsPerTurn {
                    let edges = try line.readEdges()
                    for e in edges { c.debouncer.edge(e, now: now) }
                    if edges.count < 16 { break }
                }
            } catch {
                out += lost(c, error, now: now)
            }
        }
        for c in channels {
            if let line = c.line, let due = c.debouncer.deadline, due <= now {
                do throws(GPIOError) {
                    let reading = try line.level()
                    if let change = c.debouncer.settled(now: now, reading: reading) {
                        out += report(c.role, change)
                    }
                } catch {
                    out += lost(c, error, now: now)
                }
            }
            if c.line == nil, let due = c.retryAt, due <= now {
                out += open(c, now: now)
            }
        }
        return out
    }

    public func nextDeadline() -> Instant? {
        channels.compactMap { c in c.line != nil ? c.debouncer.deadline : c.retryAt }.min()
    }

    // MARK: - Lines

    private func open(_ c: Channel, now: Instant) -> [Event] {
        var out: [Event] = []
        do throws(GPIOError) {
            let line = try chips.requestInput(c.address, consumer: GPIOSettings.consumer)
            let high = try line.level()
            c.line = line
            c.retryAt = nil
            c.debouncer.start(level: high)
            if c.failure != nil {
                c.failure = nil
                out.append(.faultCleared(c.role.faultKind))
            }
            switch c.role {
            case .armSwitch: out.append(.armSwitch(on: armed(high: high)))
            case .button: if !high { presses.startHeld() }
            case .buzzer: break
            }
        } catch {
            out += lost(c, error, now: now)
        }
        return out
    }

    /// A line that failed: let it go, say so once per distinct cause, try again later.
    private func lost(_ c: Channel, _ error: GPIOError, now: Instant) -> [Event] {
        c.line = nil
        c.retryAt = now + settings.retry
        guard c.failure != error else { return [] }
        c.failure = error
        return [.faultRaised(c.role.fault(error))]
    }

    private func report(_ role: GPIORole, _ change: LineEdge) -> [Event] {
        switch role {
        case .armSwitch:
            return [.armSwitch(on: armed(high: change.high))]
        case .button:
            // Pressed pulls the line to ground.
            if !change.high {
                presses.down(at: change.at)
                return []
            }
            return presses.up(at: change.at).map { [.button($0)] } ?? []
        case .buzzer:
            return []
        }
    }

    private func armed(high: Bool) -> Bool {
        switch settings.armContact {
        case .open: high
        case .closed: !high
        }
    }
}
