import Posix
import WatchCore

/// The buzzer's output line. Off from the instant it is requested, and off on every way out:
/// `shutdown()` (the loop's SIGTERM path), deinit, and a crash, where the kernel takes the line
/// back (see Docs/controls.md for what the line does then). It is `Pollable` only for its
/// faults: a line that can't be had is tried again every `retry`, and the box sounds on the
/// siren and the ring meanwhile.
public final class GPIOBuzzer: BuzzerLine, Pollable {
    private let chips: any GPIOChipAccess
    private let address: GPIOLineAddress
    private let retry: Duration
    private let fitted: Bool
    private var line: (any GPIOOutputLine)?
    /// What the patterns want now: driven again when the line comes back.
    private var wanted = false
    private var failure: GPIOError?
    private var retryAt: Instant?
    /// A failure met inside `set(on:)`, which has no way to return it: reported at the next turn.
    private var unreported: GPIOError?
    private var lastNow: Instant = .zero
    private var isShutDown = false

    public init(settings: GPIOSettings = GPIOSettings(), chips: any GPIOChipAccess = GPIOChips()) {
        self.chips = chips
        self.address = settings.buzzer
        self.retry = settings.retry
        self.fitted = settings.fitted.contains(.buzzer)
    }

    deinit { shutdown() }

    /// Requests the line, low. Does nothing when the buzzer is not fitted.
    public func start(now: Instant) -> [Event] {
        lastNow = now
        guard fitted else { return [] }
        return open(now: now)
    }

    /// Turns the buzzer off and gives the line back. Later `set(on:)` calls do nothing.
    public func shutdown() {
        isShutDown = true
        wanted = false
        try? line?.drive(high: false)
        line = nil
        retryAt = nil
    }

    public var isWorking: Bool { line != nil }

    public func set(on: Bool) {
        guard !isShutDown else { return }
        wanted = on
        guard let line else { return }
        do throws(GPIOError) {
            try line.drive(high: on)
        } catch {
            self.line = nil
            unreported = error
        }
    }

    public func pollRequests() -> [PollDescriptor] { [] }

    public func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        lastNow = now
        if let error = unreported {
            unreported = nil
            return lost(error, now: now)
        }
        if line == nil, !isShutDown, let due = retryAt, due <= now { return open(now: now) }
        return []
    }

    public func nextDeadline() -> Instant? {
        unreported != nil ? lastNow : retryAt
    }

    private func open(now: Instant) -> [Event] {
        guard !isShutDown else { return [] }
        do throws(GPIOError) {
            line = try chips.requestOutput(address, consumer: GPIOSettings.consumer, high: wanted)
            retryAt = nil
            guard failure != nil else { return [] }
            failure = nil
            return [.faultCleared(.buzzer)]
        } catch {
            return lost(error, now: now)
        }
    }

    private func lost(_ error: GPIOError, now: Instant) -> [Event] {
        line = nil
        retryAt = now + retry
        guard failure != error else { return [] }
        failure = error
        return [.faultRaised(GPIORole.buzzer.fault(error))]
    }
}
