import Drivers
import Journal
import Posix
import WatchCore

/// The running box: the watch, its inputs and outputs, and the rules for carrying out the
/// watch's actions. Clock-agnostic: `run` drives it from CLOCK_MONOTONIC, the demo from an
/// accelerated clock, tests from a manual one.
final class Box {
    private(set) var watch: Watch
    /// Everything the loop polls, in start order: the sources given, then the parts'.
    let sources: [Pollable]
    let buzzerAndSiren: BuzzerAndSiren
    var log: DecisionLog?
    /// The parts, in start order (`Wiring.parts`), sorted once below by what each does.
    let parts: [Part]
    /// Shown the status as it is, once a turn.
    private let observers: [BoxObserver]
    /// Shown the `AnnouncedStatus` (the network outputs), so they learn a decision only with
    /// its receipt, and a ringing alarm at once. Settable for tests that tell their own.
    var announcers: [BoxObserver]
    private let listeners: [BoxListener]
    /// The sources that are handed the box (`BoxServer`).
    private let servers: [BoxServer]
    private let checked: [CheckedPart]
    private var announced = AnnouncedStatus()
    /// A test's ear for receipts; the product's parts hear them as `BoxListener`s.
    var onReceipt: ((Receipt, _ saved: Bool, Instant) -> Void)?
    private let wall: () -> Double
    /// GPS readings handled, for the loop's cost benchmark ("stopped after ...").
    private(set) var readings = 0
    /// The instant the watch last handled an event: every event ends with the watch's
    /// reassessment at its instant (`Watch.handle`), which is all a tick is, so a turn whose
    /// events already took the watch to `now` needs no tick of its own.
    private var watchSaw: Instant?
    /// Inside `turn`: the observers are shown once, at its end, the status of all it did.
    private var turnDepth = 0
    private var refreshOwed = false

    init(watch: Watch, sources: [Pollable] = [], buzzerAndSiren: BuzzerAndSiren, log: DecisionLog?,
         wall: @escaping () -> Double, parts: [Part] = []) {
        self.watch = watch
        self.sources = sources + parts.compactMap(\.polled)
        self.buzzerAndSiren = buzzerAndSiren
        self.log = log
        self.wall = wall
        self.parts = parts
        observers = parts.compactMap(\.shown)
        announcers = parts.compactMap(\.told)
        listeners = parts.compactMap(\.hearing)
        servers = parts.compactMap(\.served)
        checked = parts.compactMap(\.checked)
    }

    /// The parts' Systems Check rows. One part's own array when it is the only one with rows
    /// (gpsd's are empty once it answers, leaving the monitor's), so the snapshot's change key
    /// compares one buffer with itself on every turn, not row by row.
    var checks: [SystemsCheck.Row] {
        var all: [SystemsCheck.Row] = []
        for part in checked {
            let rows = part.rows
            if all.isEmpty { all = rows } else { all += rows }
        }
        return all
    }

    /// A clean stop: what the swing has learnt to the journal (a restart shows the same swing,
    /// `Action.swingLearnt`), every part in reverse start order, then the sound off.
    func stop(now: Instant) {
        if let log, watch.anchor != nil, let memory = watch.swingMemory(at: now) {
            _ = log.submit([.swingLearnt(memory)], now: now, wall: wall())
        }
        for part in parts.reversed() { part.stop(now: now) }
        buzzerAndSiren.silence()
    }

    /// Brings back what the journal remembered. A latched alarm sounds before anything else.
    /// The listeners are not told: nothing was decided, and the start says it in its own words
    /// (`StartUp.restore`).
    func restore(anchor: Coordinate?, radius: Meters, armed: Bool, ringingEpisode: Int?, lastEpisode: Int, now: Instant) {
        let actions = watch.restore(anchor: anchor, radius: radius, armed: armed, ringingEpisode: ringingEpisode,
                                    lastEpisode: lastEpisode, at: now)
        carryOut(actions, now: now, reply: nil, journal: false, heard: false)
    }

    /// The same from all the journal recovered: its memory and the farthest distance.
    func restore(_ recovery: Journal.Recovery, now: Instant) {
        carryOut(watch.restore(recovery, at: now), now: now, reply: nil, journal: false, heard: false)
    }

    /// One event through the watch, and its actions carried out. Returns true when `reply` has
    /// been or will be called (a decision accepted or refused); a decision's receipt waits for
    /// its record to be durable.
    @discardableResult
    func handle(_ event: Event, now: Instant, reply: ((DecisionOutcome) -> Void)? = nil) -> Bool {
        if case .reading = event { readings += 1 }
        let actions = through(event, now: now)
        carryOut(actions, now: now, reply: reply, journal: true)
        return actions.contains { if case .accepted = $0 { true } else if case .refused = $0 { true } else { false } }
    }

    private func through(_ event: Event, now: Instant) -> [Action] {
        watchSaw = now
        return watch.handle(event, at: now)
    }

    /// Decisions applied whose records are on their way to the card: their confirmation (the
    /// chirp, the ring, the receipt) waits for the journal's completion.
    private struct Awaiting {
        var ticket: LogTicket
        var confirmations: [(receipt: Receipt, chirp: Chirp)]
        var reply: ((DecisionOutcome) -> Void)?
    }
    private var awaiting: [Awaiting] = []
    /// Decisions waiting on the journal, for the Systems Check and tests.
    var awaitingReceipts: Int { awaiting.reduce(0) { $0 + $1.confirmations.count } }

    /// The order is the product's: sound an alarm at once; make decisions durable before
    /// confirming them; refuse at once.
    private func carryOut(_ actions: [Action], now: Instant, reply: ((DecisionOutcome) -> Void)?, journal: Bool,
                          heard: Bool = true) {
        // First what must not wait: the alarm, the fault pattern, refusals and plain chirps.
        for action in actions {
            switch action {
            case .alarmSound(let on): buzzerAndSiren.alarm(on: on, now: now)
            case .faultSound(let on): buzzerAndSiren.fault(on: on, now: now)
            case .refused(_, let why):
                buzzerAndSiren.chirp(.refusal, now: now)
                reply?(.refused(why))
            case .chirp(let c): buzzerAndSiren.chirp(c, now: now)
            default: break
            }
        }
        var confirmations: [(receipt: Receipt, chirp: Chirp)] = []
        for case .accepted(let receipt, let chirp) in actions {
            // A snooze of the fault sound leaves no record to wait for: confirmed at once.
            if receipt.silencesFault {
                confirm(receipt, chirp: chirp, saved: true, reply: reply, now: now)
            } else {
                confirmations.append((receipt, chirp))
            }
        }
        if journal, let log, actions.contains(where: Self.isRecorded) {
            if let ticket = log.submit(actions, now: now, wall: wall()) {
                if !confirmations.isEmpty {
                    awaiting.append(Awaiting(ticket: ticket, confirmations: confirmations, reply: reply))
                }
                confirmations = []
            }
        }
        // Without a journal (the demo, some tests) there is no record to wait for: confirmed at
        // once. With one, a decision that left no durable record is not saved.
        // One decision, one answer: the first receipt (a mark that arms says so in its own).
        for (i, c) in confirmations.enumerated() {
            confirm(c.receipt, chirp: c.chirp, saved: log == nil, reply: i == 0 ? reply : nil, now: now)
        }
        if heard { for l in listeners { l.heard(actions, box: self, now: now) } }
        if journal { takeCompletions(now: now) }
        refreshSoon(now: now)
    }

    /// What the journal finished: each waiting decision confirmed, or its "not saved" outcome;
    /// the journal fault raised on a failure even before the journal says so itself.
    func takeCompletions(now: Instant) {
        guard let log else { return }
        let (tickets, events) = log.takeCompletions()
        for event in events { carryOut(through(event, now: now), now: now, reply: nil, journal: false) }
        for (ticket, saved) in tickets {
            if !saved, watch.faults[.journal] == nil {
                // Raised through the watch, so it pushes like any fault; never reported as saved.
                let more = through(.faultRaised(Fault(.journal, "Journal: can't save to storage; watching from memory")), now: now)
                carryOut(more, now: now, reply: nil, journal: false)
            }
            guard let i = awaiting.firstIndex(where: { $0.ticket == ticket }) else { continue }
            let done = awaiting.remove(at: i)
            for (i, c) in done.confirmations.enumerated() {
                confirm(c.receipt, chirp: c.chirp, saved: saved, reply: i == 0 ? done.reply : nil, now: now)
            }
        }
        if !tickets.isEmpty || !events.isEmpty { refreshSoon(now: now) }
    }

    /// The receipt a durable record earns, or the "not saved" outcome, on every surface.
    private func confirm(_ receipt: Receipt, chirp: Chirp, saved: Bool, reply: ((DecisionOutcome) -> Void)?, now: Instant) {
        if saved {
            buzzerAndSiren.chirp(chirp, now: now)
        } else {
            buzzerAndSiren.notSaved(now: now)
        }
        reply?(.accepted(receipt, saved: saved))
        // The ring's confirmation and the console's line follow this, never the decision itself.
        for l in listeners { l.confirmed(receipt, saved: saved, now: now) }
        onReceipt?(receipt, saved, now)
    }

    private static func isRecorded(_ a: Action) -> Bool {
        switch a {
        case .chirp, .alarmSound, .faultSound: false
        case .accepted(let receipt, _): !receipt.silencesFault
        default: true
        }
    }

    /// Brings outputs up to date with the watch at `now`.
    func refresh(now: Instant) {
        refreshOwed = false
        buzzerAndSiren.update(now: now)
        let status = Self.status(of: &watch, at: now)
        let rows = checks
        for o in observers { o.show(status, checks: rows, now: now) }
        guard !announcers.isEmpty else { return }
        let told = announced.status(live: status, waiting: !awaiting.isEmpty)
        for a in announcers { a.show(told, checks: rows, now: now) }
    }

    /// The watch's status read in place: through `inout` the compiler borrows the watch,
    /// where a call on the stored property copied the whole struct first (1,600 instructions).
    private static func status(of watch: inout Watch, at now: Instant) -> WatchStatus { watch.status(at: now) }
    private static func deadline(of watch: inout Watch, after now: Instant) -> Instant? { watch.nextDeadline(after: now) }

    /// How often the journal keeps the track, from the watch's verdict and alarm (read in place).
    var trackPace: TrackPace { TrackPace(verdict: watch.verdict, alarm: watch.alarm) }

    /// The buzzer at once; the observers (snapshot, ring, network outputs) at once outside a
    /// turn, at its end inside one: they show where the turn left the watch, not each step.
    private func refreshSoon(now: Instant) {
        guard turnDepth > 0 else { return refresh(now: now) }
        buzzerAndSiren.update(now: now)
        refreshOwed = true
    }

    /// One loop turn's work at `now`: what `body` does to the watch is shown once, at the end.
    func turn(now: Instant, _ body: () -> Void) {
        turnDepth += 1
        body()
        turnDepth -= 1
        if turnDepth == 0, refreshOwed { refresh(now: now) }
    }

    /// The earliest instant anything needs time alone to act.
    func nextDeadline(now: Instant) -> Instant? {
        var next = Self.deadline(of: &watch, after: now)
        func consider(_ t: Instant?) {
            guard let t else { return }
            next = next.map { min($0, t) } ?? t
        }
        consider(buzzerAndSiren.nextDeadline(now: now))
        consider(log?.nextDeadline())
        for o in observers { consider(o.nextDeadline(now: now)) }
        for a in announcers { consider(a.nextDeadline(now: now)) }
        for s in sources { consider(s.nextDeadline()) }
        return next
    }

    /// The one dispatch of a loop turn, inside one `turn` (the observers see its end once):
    /// ready descriptors by source, then the sources whose deadline has come, then time itself
    /// (unless an event this turn already took the watch to `now`). A `BoxServer` is
    /// handed the box, so its replies can wait for the journal; every other source's events are
    /// handled here.
    func serve(_ ready: [(Pollable, [PollDescriptor])], now: Instant) {
        turn(now: now) {
            for (source, requests) in ready { dispatch(source, requests, now: now) }
            // The sources are a handful: identity scans, no sets built per turn.
            func due(_ s: Pollable) {
                guard !ready.contains(where: { $0.0 === s }), let d = s.dueFrom(), d <= now else { return }
                dispatch(s, [], now: now)
            }
            for s in sources { due(s) }
            if let log {
                log.flushIfDue(now: now)
                takeCompletions(now: now)
            }
            if watchSaw != now { handle(.tick, now: now) }
        }
    }

    private func dispatch(_ source: Pollable, _ requests: [PollDescriptor], now: Instant) {
        // The servers are a handful (the control socket, the network inputs): an identity scan.
        for server in servers where server === source { return server.serve(requests, now: now, box: self) }
        for event in source.service(ready: requests, now: now) { handle(event, now: now) }
    }
}
