import Posix
import LightsAndSounds
import WatchCore

/// The ring as the event loop sees it: renders the watch's status, sends a frame only when it
/// changed, and turns a missing or failing device into the `.ledRing` fault (and its clearing)
/// while the box keeps watching.
///
/// Each turn of the loop: `update(status, at: now)` and feed the returned events to the watch;
/// after an accepted or refused decision, `activity(at:)`; include `nextDeadline(after:)` in the
/// loop's timer. Or, as an observer of the box: `show(status, now:)` each turn, and poll it as a
/// `Pollable` source, whose `service` hands over the fault events.
public final class LEDRing: Pollable {
    public private(set) var presenter: RingPresenter
    private let makeOutput: () throws -> RingOutput
    private var output: RingOutput?
    private var fault: Fault?
    private var retryAt: Instant?
    /// How long a failed ring waits before trying its device again when nothing else changes.
    public static let retryAfter: Duration = .seconds(30)

    /// `makeOutput` opens the device (e.g. `{ try SPIRing(path:encoder:) }`); it is called again
    /// to retry after a failure.
    public init(settings: RingSettings, start: Instant, makeOutput: @escaping () throws -> RingOutput) {
        self.presenter = RingPresenter(settings: settings, start: start)
        self.makeOutput = makeOutput
    }

    public convenience init(settings: RingSettings, device: SPIRingSettings, start: Instant) {
        let encoder = device.encoder
        self.init(settings: settings, start: start) { try SPIRing(path: device.device, encoder: encoder) }
    }

    /// The last frame sent to the ring, for the demo's drawing.
    public var shown: [RGB]? { presenter.shown }

    public func update(_ status: WatchStatus, at now: Instant) -> [Event] {
        if let retryAt, now >= retryAt {
            self.retryAt = nil
            presenter.invalidate()
        }
        guard let frame = presenter.update(status, at: now) else { return [] }
        do {
            if output == nil { output = try makeOutput() }
            try output!.show(frame)
        } catch {
            presenter.invalidate()
            retryAt = now + Self.retryAfter
            let new = (error as? SPIRingError)?.fault ?? Fault(.ledRing, "LED ring: \(error), the ring is dark")
            guard new != fault else { return [] }
            fault = new
            return [.faultRaised(new)]
        }
        guard fault != nil else { return [] }
        fault = nil
        return [.faultCleared(.ledRing)]
    }

    public func activity(at now: Instant) { presenter.activity(at: now) }

    // MARK: - As an observer of the box and a source of its fault events

    private var pending: [Event] = []

    public func show(_ status: WatchStatus, now: Instant) { pending += update(status, at: now) }

    public func nextDeadline(now: Instant) -> Instant? { nextDeadline(after: now) }

    public func pollRequests() -> [PollDescriptor] { [] }

    public func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        defer { pending.removeAll() }
        return pending
    }

    /// Due at once while fault events wait to be handed over.
    public func nextDeadline() -> Instant? { pending.isEmpty ? nil : .zero }

    public func nextDeadline(after now: Instant) -> Instant? {
        [presenter.nextFrameChange(after: now), retryAt].compactMap { $0 }.min()
    }
}
