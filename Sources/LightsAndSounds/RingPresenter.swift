import WatchCore

/// What the event loop keeps for the ring: the renderer, the calm clock and the last frame
/// shown, so a frame goes to the ring only when it differs from what the ring already shows.
///
/// Each turn: `update(status, at: now)` and show what it returns (nil: nothing to send); after
/// accepting or refusing a decision, `activity(at:)`; arm the loop's timer for
/// `nextFrameChange(after:)`; after a failed show, `invalidate()` so the frame is sent again.
public struct RingPresenter: Sendable {
    public let renderer: RingRenderer
    public private(set) var calm: RingCalm
    public private(set) var shown: [RGB]?
    public private(set) var status: WatchStatus?

    public init(settings: RingSettings, start: Instant) {
        self.renderer = RingRenderer(settings: settings)
        self.calm = RingCalm(since: start)
    }

    /// The frame for `status` at `now` if the ring does not already show it.
    public mutating func update(_ status: WatchStatus, at now: Instant) -> [RGB]? {
        self.status = status
        calm.observe(status, at: now)
        let frame = renderer.frame(status, at: now, calmSince: calm.calmSince)
        guard frame != shown else { return nil }
        shown = frame
        return frame
    }

    public mutating func activity(at now: Instant) { calm.activity(at: now) }

    public mutating func invalidate() { shown = nil }

    public func nextFrameChange(after now: Instant) -> Instant? {
        guard let status else { return nil }
        return renderer.nextFrameChange(status, after: now, calmSince: calm.calmSince)
    }
}
