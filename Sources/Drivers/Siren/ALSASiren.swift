import CALSA
import CALSAShim
import Posix
import LightsAndSounds
import WatchCore

/// The siren through alsa-lib: the only file that speaks to ALSA.
///
/// Opened once at start and kept open, non-blocking, so sounding the alarm is a `drop`, a
/// `prepare` and one buffer of samples written and started: well inside 100 ms. The loop polls
/// the card's descriptors while a sound plays and calls `service`, which writes what the card has
/// room for. Stopping drops the buffer (nothing drains after a snooze). Volume scales the
/// samples; no mixer is touched.
///
/// A missing or failing card is the `.siren` fault ("the buzzer still rings"), retried every
/// `retryAfter`; everything else on the box goes on.
///
/// Driven by what the box means (`SirenOutput`: alarm, fault, chirp, not saved), never by a
/// pattern to decode: the priority is `SoundPriority`'s, the same the buzzer follows, and the
/// siren sounds its own two-tone alarm (`SoundDesign.alarmSiren`). `play(_:now:)` plays any
/// pattern once (test-alarm).
public final class ALSASiren: SirenOutput {
    /// What the box still does without the siren, the end of its fault's words (a box whose
    /// buzzer can't sound either says otherwise: `SystemsCheck.told`).
    public static let consequence = "the buzzer still rings"

    public let settings: SirenSettings

    private var pcm: OpaquePointer?
    private var channels = 1
    private var bufferFrames = 0
    /// What the box asks for, and which of it is heard.
    private var priority = SoundPriority()
    /// What the card plays: `priority.heard` unless the card could not start it.
    private var playing: SoundPriority.Sound?
    private var generator: ToneGenerator?
    /// When the last samples of a one-shot sound will have left the speaker.
    private var drainedAt: Instant?

    /// The clock the writes are held to (`SirenPace`), from the start of the sound playing.
    private var pace: SirenPace?
    /// The last feed stopped at the clock with the device still taking more: a device that does
    /// not keep time. Its descriptors are left out of the poll (they would be ready at once) and
    /// the loop's timer brings the next write.
    private var heldByClock = false
    private var periodFrames = 0

    private var fault: Fault?
    private var pending: [Event] = []
    private var retryAt: Instant?
    private var scratch: [Int16] = []

    /// Frames handed to alsa-lib since start; the time the last start took, from the call to the
    /// card running with its first chunk written.
    public private(set) var framesWritten = 0
    public private(set) var lastStartLatency: Duration?
    /// When the card last started running, for `lastStartLatency`.
    private var runningAt: Instant?
    /// Underruns recovered: the loop came back too late to keep the card fed.
    public private(set) var underruns = 0

    private static let silenced: Void = aa_alsa_silence_errors()

    public init(settings: SirenSettings = SirenSettings(), now: Instant) {
        self.settings = settings
        _ = Self.silenced
        Waveform.prepareTables()
        _ = (SoundDesign.alarmSiren, SoundDesign.fault)
        openDevice(now: now)
    }

    deinit { if let pcm { snd_pcm_close(pcm) } }

    // MARK: - What the loop calls

    public func setAlarm(_ on: Bool, now: Instant) {
        priority.setAlarm(on)
        resume(now: now)
    }

    public func setFault(_ on: Bool, now: Instant) {
        priority.setFault(on)
        resume(now: now)
    }

    public func chirp(_ chirp: Chirp, now: Instant) { play(SoundDesign.chirp(chirp), now: now) }

    public func notSaved(now: Instant) { play(SoundDesign.notSaved, now: now) }

    /// Plays any pattern once (test-alarm), like a chirp.
    public func play(_ pattern: SoundPattern, now: Instant) {
        guard priority.play(pattern) else { return }
        if playing == .oneShot { playing = nil }  // a new one-shot restarts, even the same one
        resume(now: now)
    }

    /// Silence at once, everything off.
    public func stopAll() {
        priority.silence()
        silence()
    }

    public var isSounding: Bool { playing != nil }
    /// What the card plays: what `SoundPriority` says is heard, while the card works.
    public var sounding: SoundPriority.Sound? { playing }
    public var isRunning: Bool { pcm.map { snd_pcm_state($0) == SND_PCM_STATE_RUNNING } ?? false }
    public var deviceOpen: Bool { pcm != nil }

    // MARK: - Pollable

    public func pollRequests() -> [PollDescriptor] {
        guard let pcm, let g = generator, !g.finished, !heldByClock else { return [] }
        return descriptors(pcm).map { PollDescriptor(fd: $0.fd, wanted: $0.events) }
    }

    public func service(ready: [PollDescriptor], now: Instant) -> [Event] {
        if pcm == nil, let retryAt, now >= retryAt { openDevice(now: now) }
        if let drainedAt, now >= drainedAt { finishOneShot(now: now) }
        let before = framesWritten
        if let pcm, !ready.isEmpty {
            var fds = descriptors(pcm)
            for i in fds.indices { fds[i].revents = ready.first { $0.fd == fds[i].fd }?.happened ?? 0 }
            var revents: UInt16 = 0
            let err = snd_pcm_poll_descriptors_revents(pcm, &fds, UInt32(fds.count), &revents)
            if err < 0 || Int16(truncatingIfNeeded: revents) & PollEvents.error != 0 {
                // An underrun or a suspend shows as POLLERR: the write below recovers it.
                _ = recover(Errno(negated: err) ?? .brokenPipe, now: now)
            }
        }
        feed(now: now)
        if !ready.isEmpty, pcm != nil, pace?.woke(took: framesWritten - before, period: periodFrames, at: now) == true {
            failDevice(nil, "does not keep time (it wakes the box with no room for sound)", now: now)
        }
        defer { pending.removeAll() }
        return pending
    }

    public func nextDeadline() -> Instant? {
        if !pending.isEmpty { return .zero }
        return [pcm == nil ? retryAt : nil, drainedAt, clockFeedAt].compactMap { $0 }.min()
    }

    /// While the clock holds the writes (or the device has no descriptors to poll): when the
    /// clock lets half a buffer more be written, so a device that does not keep time is fed
    /// about 20 times a second, like a card's periods.
    private var clockFeedAt: Instant? {
        guard let pcm, let pace, let g = generator, !g.finished else { return nil }
        guard heldByClock || snd_pcm_poll_descriptors_count(pcm) <= 0 else { return nil }
        return pace.when(room: max(1, bufferFrames / 2))
    }

    // MARK: - Playing

    private func resume(now: Instant) {
        guard let sound = priority.heard else { return silence() }
        guard sound != playing else { return }
        switch sound {
        case .alarm: start(sound, SoundDesign.alarmSiren, now: now)
        case .oneShot: if let p = priority.oneShot { start(sound, p, now: now) }
        case .fault: start(sound, SoundDesign.fault, now: now)
        }
    }

    private func start(_ sound: SoundPriority.Sound, _ pattern: SoundPattern, now: Instant) {
        guard let pcm else {
            playing = nil
            return  // the .siren fault is raised; the buzzer still rings
        }
        let began = monotonicNow()
        // Whatever played is cut, never drained: the new sound is the one that matters.
        snd_pcm_drop(pcm)
        let err = snd_pcm_prepare(pcm)
        if let e = Errno(negated: err) { return failDevice(e, "could not start", now: now) }
        playing = sound
        drainedAt = nil
        generator = ToneGenerator(pattern: pattern, sampleRate: settings.sampleRate, volume: settings.volume,
                                  waveform: SoundDesign.waveform(for: pattern))
        pace = SirenPace(rate: settings.sampleRate, ahead: max(bufferFrames, 1), start: now)
        heldByClock = false
        runningAt = nil
        feed(now: now)
        lastStartLatency = (runningAt ?? monotonicNow()) - began
    }

    private func silence() {
        if let pcm { snd_pcm_drop(pcm) }
        playing = nil
        generator = nil
        drainedAt = nil
        pace = nil
        heldByClock = false
    }

    private func finishOneShot(now: Instant) {
        drainedAt = nil
        priority.oneShotEnded()
        if playing == .oneShot { silence() }
        resume(now: now)
    }

    /// Writes what the card has room for, at most one buffer a call (a bounded batch), in
    /// chunks of 10 ms: the card starts after the first chunk, so the first sound does not wait
    /// for a whole buffer to be computed, and each chunk takes far less time than it plays.
    private func feed(now: Instant) {
        guard let pcm, var g = generator, pace != nil else { return }
        var budget = max(bufferFrames, 1)
        let chunk = max(64, settings.sampleRate / 100)
        heldByClock = false
        while budget > 0, !g.finished {
            let room = pace?.room(at: now) ?? 0
            let avail = snd_pcm_avail_update(pcm)
            if let e = Errno(negated: avail) {
                guard recover(e, now: now) else { return }
                continue
            }
            if avail == 0 { break }
            if room == 0 {
                heldByClock = true
                break
            }
            let frames = min(avail, budget, chunk, room)
            scratch.removeAll(keepingCapacity: true)
            let made = g.render(frames, into: &scratch)
            if channels == 2 { scratch = scratch.flatMap { [$0, $0] } }
            let wrote = scratch.withUnsafeBytes { snd_pcm_writei(pcm, $0.baseAddress, snd_pcm_uframes_t(made)) }
            if let e = Errno(negated: wrote) {
                if e.isWouldBlock { break }
                guard recover(e, now: now) else { return }
                continue
            }
            // A short write after `avail` said there was room loses the rest of this batch:
            // a click in a siren, never a stall.
            framesWritten += wrote
            pace?.wrote(wrote)
            budget -= made
            // Start at once rather than at alsa-lib's threshold (a full buffer), which a short
            // sound would never reach.
            if wrote > 0, snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED {
                if let e = Errno(negated: snd_pcm_start(pcm)) {
                    generator = g
                    return failDevice(e, "could not start", now: now)
                }
                runningAt = monotonicNow()
            }
        }
        generator = g
        if g.finished, drainedAt == nil {
            var delay: snd_pcm_sframes_t = 0
            if snd_pcm_delay(pcm, &delay) < 0 { delay = 0 }
            let left = Duration.nanoseconds(Int64(max(0, delay)) * 1_000_000_000 / Int64(settings.sampleRate))
            drainedAt = now + left + .milliseconds(10)
        }
    }

    /// An underrun (EPIPE), a suspend (ESTRPIPE) or a signal (EINTR) is recovered in place;
    /// anything else (a card unplugged: ENODEV) closes the device and raises the fault.
    private func recover(_ e: Errno, now: Instant) -> Bool {
        guard let pcm else { return false }
        if e == .brokenPipe || e == .suspended || e == .interrupted {
            if e == .brokenPipe { underruns += 1 }
            guard let failed = Errno(negated: snd_pcm_recover(pcm, -e.rawValue, 1)) else { return true }
            failDevice(failed, "failed", now: now)
            return false
        }
        failDevice(e, "failed", now: now)
        return false
    }

    // MARK: - The device

    private func openDevice(now: Instant) {
        retryAt = nil
        var handle: OpaquePointer?
        var err = snd_pcm_open(&handle, settings.device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard err >= 0, let handle else {
            return raise("Siren: no sound device \"\(settings.device)\" (\(text(err))), \(Self.consequence)", now: now)
        }
        let latency = UInt32(max(1, settings.buffer.nanoseconds / 1000))
        for ch in [1, 2] {
            err = snd_pcm_set_params(handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                                     UInt32(ch), UInt32(settings.sampleRate), 1, latency)
            if err >= 0 {
                channels = ch
                break
            }
        }
        guard err >= 0 else {
            snd_pcm_close(handle)
            return raise("Siren: sound device \"\(settings.device)\" refused 16-bit sound at \(settings.sampleRate) Hz (\(text(err))), \(Self.consequence)", now: now)
        }
        var buffer: snd_pcm_uframes_t = 0
        var period: snd_pcm_uframes_t = 0
        snd_pcm_get_params(handle, &buffer, &period)
        bufferFrames = Int(buffer)
        periodFrames = max(1, Int(period))
        pcm = handle
        if fault != nil {
            fault = nil
            pending.append(.faultCleared(.siren))
        }
        playing = nil
        resume(now: now)
    }

    private func failDevice(_ err: Errno?, _ what: String, now: Instant) {
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
        playing = nil
        generator = nil
        drainedAt = nil
        pace = nil
        heldByClock = false
        let why = err.map { " (\(text(-$0.rawValue)))" } ?? ""
        raise("Siren: sound device \"\(settings.device)\" \(what)\(why), \(Self.consequence)", now: now)
    }

    private func raise(_ message: String, now: Instant) {
        retryAt = now + settings.retryAfter
        let new = Fault(.siren, message)
        guard new != fault else { return }
        fault = new
        pending.append(.faultRaised(new))
    }

    private func descriptors(_ pcm: OpaquePointer) -> [pollfd] {
        let count = Int(snd_pcm_poll_descriptors_count(pcm))
        guard count > 0 else { return [] }
        var fds = [pollfd](repeating: pollfd(), count: count)
        let filled = snd_pcm_poll_descriptors(pcm, &fds, UInt32(count))
        return Array(fds.prefix(Int(max(0, filled))))
    }

    private func text(_ err: Int32) -> String { String(cString: snd_strerror(err)) }

    /// Only for `lastStartLatency`, a measurement: everything the siren does runs on the
    /// loop's `now`.
    private func monotonicNow() -> Instant { MonotonicClock.now() }
}
