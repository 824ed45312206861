/// Where the anchor lies, learnt from the swing: the centre of the arc the GPS antenna traces as
/// the boat swings to its anchor (the rode's reach plus the bow-to-antenna offset away).
///
/// Cheap and bounded: each usable GPS reading lands in a 2 m cell of a local plane (a dictionary
/// update); the cells, at most `maxCells` of them, are the whole memory. Every `fitEvery` the
/// circle is fitted again over the cells (an algebraic fit, then a few geometric refinements),
/// so the cost per reading stays a lookup plus a share of one fit. A cell's weight is capped,
/// so the hours the boat lies downwind count no more than the minutes of a wind shift: the arc,
/// not the time spent on it, places the centre.
///
/// The estimate never moves the mark: `Watch` only offers it (status, Systems Check, recap) and
/// moves the mark on a decision (`MarkRequest.fromSwing`). A slow drag moves the centre too;
/// what tells the two apart is that a misplaced mark leaves a centre that stays put while the
/// boat swings around it, and a drag moves it: the estimate says `moving` when its centre has
/// shifted by more than its own uncertainty over the last `movingSpan`, and then no move is
/// offered. A drag that is faster than the fit or confined to one heading can still look like a
/// settled centre for a while: that is why the alarm judges the mark, never the estimate.
public struct SwingEstimator: Sendable {
    public struct Settings: Hashable, Sendable {
        public var cellSize = 2.0
        public var maxCells = 1024
        /// Readings in a cell past which it weighs no more.
        public var cellCap = 8
        public var fitEvery: Duration = .seconds(10)
        /// A cell not visited for this long is forgotten (an old swing, a drag's first track),
        /// unless it lies on the circle of a settled estimate whose centre is not moving: the
        /// arc before a wind shift still shows where the anchor is while the boat swings about it.
        public var forgetAfter: Duration = .seconds(3 * 3600)
        /// Settled: the arc spans this much around the centre and the centre is known this well.
        public var minArc = 60.0
        public var settleUncertainty = 6.0
        public var settleFraction = 0.25
        /// A swing tighter than this is a boat on a mooring or at a dock, not one lying to a rode.
        public var minSwingRadius = 6.0
        public var maxSwingRadius = 400.0
        public var movingSpan: Duration = .seconds(15 * 60)
        /// Never settled sooner than this after learning began: a minute of yaw is no swing.
        public var minLearning: Duration = .seconds(10 * 60)
        /// Settled this long without a break before the estimate is `steady`: what the skipper is
        /// shown about the centre (where the anchor may lie, that it agrees or moves) waits for it,
        /// so one lucky fit on a departure's first metres is never said.
        public var showAfter: Duration = .seconds(2 * 60)
        /// A settled estimate is kept through unsettled fits this long: one noisy fit neither
        /// takes back what is shown nor restarts the wait for `stable`. And what is shown
        /// changes at most once in this long (`publish`).
        public var holdThrough: Duration = .seconds(30)
        /// While learning, what has been learnt is handed on to be kept (`Memory`, the journal's
        /// swing record) at least this often, and whenever what is shown changes.
        public var saveEvery: Duration = .seconds(10 * 60)
        public init() {}
    }

    struct Cell: Hashable, Sendable {
        var count: Int
        var east: Double
        var north: Double
        var lastSeen: Instant
    }

    public let settings: Settings
    /// The local plane's origin: the first reading since the last reset.
    private(set) var origin: Coordinate?
    private var cells: [Int: Cell] = [:]
    private var lastFit: Instant?
    public private(set) var estimate: SwingEstimate?
    /// Settled centres, one per fit, oldest first, reaching back `movingSpan` (bounded by it
    /// over `fitEvery`).
    private var history: [(at: Instant, east: Double, north: Double)] = []
    private var historyHead = 0
    /// Since when the estimate has been settled without a break (`holdThrough` bridges one).
    private var settledSince: Instant?
    /// The first unsettled fit since the estimate was last settled.
    private var unsettledSince: Instant?
    /// The widest arc the fits have covered since learning began (`SwingEstimate.arcSeen`): the
    /// least arc of a run of plausible fits about one circle (centre and radius alike) lasting
    /// `showAfter`, at its widest. A boat leaving the anchorage (or dragging) bends each fit
    /// about another passing centre (a berth's departure said 50, 70, 90, then 210 degrees in a
    /// minute, and a circle of 100 m, then 270 m, as it motored off); a swing covers its arc
    /// fit after fit about the same circle.
    public private(set) var arcSeen = 0.0
    /// The run of fits about one circle, reaching back `showAfter` (and one before it), oldest
    /// first: when each came, the arc it covered and its circle.
    private var arcRun: [(at: Instant, arc: Double, a: Double, b: Double, r: Double)] = []
    /// Learning since (the first reading after the last reset).
    public private(set) var since: Instant?
    public private(set) var readings = 0
    /// When a memory was last handed on to be kept, and what was shown then (`saveDue`).
    private var savedAt: Instant?
    private var savedKey: ShownKey?
    /// When `estimate` last changed (`publish`).
    private var shownSince: Instant?
    /// The circle of the last settled fit whose centre was not moving (nil otherwise): its old
    /// cells within `band` of its radius are not forgotten.
    private var keptCircle: (a: Double, b: Double, r: Double, band: Double)?

    public init(settings: Settings = Settings()) { self.settings = settings }

    public var cellCount: Int { cells.count }

    public mutating func reset() {
        origin = nil
        cells.removeAll(keepingCapacity: true)
        lastFit = nil
        estimate = nil
        history.removeAll(keepingCapacity: true)
        historyHead = 0
        settledSince = nil
        unsettledSince = nil
        arcSeen = 0
        arcRun.removeAll(keepingCapacity: true)
        since = nil
        readings = 0
        savedAt = nil
        savedKey = nil
        shownSince = nil
        keptCircle = nil
    }

    /// A new mark: what was learnt is kept when the boat still lies to the same anchor (the
    /// new mark inside the swing circle seen, a correction) and forgotten otherwise (a new
    /// anchorage, or the first mark).
    public mutating func newMark(_ new: Coordinate, replacing old: Coordinate?) {
        if old != nil, let e = estimate, e.settled, Geodesy.distance(e.centre, new) <= e.farthest + e.uncertainty { return }
        reset()
    }

    /// One usable GPS reading of the antenna at `at`.
    public mutating func add(_ position: Coordinate, at now: Instant) {
        if origin == nil {
            origin = position
            since = now
        }
        guard let origin else { return }
        let o = Geodesy.offset(from: origin, to: position)
        // Sailed away from the plane (tens of km): the anchorage is another one.
        guard abs(o.east) < 20_000, abs(o.north) < 20_000 else {
            reset()
            return add(position, at: now)
        }
        readings += 1
        let key = Self.key(o.east, o.north, size: settings.cellSize)
        if var c = cells[key] {
            c.count += 1
            c.east += o.east
            c.north += o.north
            c.lastSeen = now
            cells[key] = c
        } else {
            if cells.count >= settings.maxCells { evictOldest() }
            cells[key] = Cell(count: 1, east: o.east, north: o.north, lastSeen: now)
        }
        if lastFit.map({ now - $0 >= settings.fitEvery }) ?? true {
            fit(at: now)
        }
    }

    static func key(_ east: Double, _ north: Double, size: Double) -> Int {
        let ix = Int((east / size).rounded(.down)) + 32_768
        let iy = Int((north / size).rounded(.down)) + 32_768
        return ix << 17 | iy
    }

    /// Drops the least recently visited quarter: amortised, one sort per `maxCells / 4` new cells.
    private mutating func evictOldest() {
        let order = cells.sorted { $0.value.lastSeen < $1.value.lastSeen }
        for (key, _) in order.prefix(max(1, cells.count / 4)) { cells[key] = nil }
    }

    // MARK: - The fit

    /// `forget: false`: old cells are kept for this fit (a restored settled estimate, whose
    /// circle is not known until it is fitted again).
    private mutating func fit(at now: Instant, forget: Bool = true) {
        lastFit = now
        if forget {
            for (key, c) in cells where now - c.lastSeen > settings.forgetAfter && !onKeptCircle(c) { cells[key] = nil }
        }
        // In the cells' key order, not the dictionary's (which differs from process to process
        // and copy to copy): the same readings give the same estimate to the last bit.
        let ordered = cells.sorted { $0.key < $1.key }.map(\.value)
        guard let origin, var circle = Self.fitCircle(ordered, cap: settings.cellCap) else {
            arcRun.removeAll(keepingCapacity: true)
            if holding(at: now) { return }
            keptCircle = nil
            publish(nil, at: now)
            unsettledSince = nil
            return
        }
        let (arc, bins) = Self.arc(ordered, a: circle.a, b: circle.b)
        // The residuals are not independent from cell to cell: the rode's stretch, the yaw and
        // the receiver's wander are slow and move neighbouring cells together. Count a 10
        // degree sector of the arc as one independent piece of evidence, not each cell.
        circle.u95 = max(circle.u95 * (circle.weight / Double(max(bins, 1))).squareRoot(), circle.u95)
        // A receiver's slow wander moves every cell of a stretch of arc together, so it does
        // not average out: the centre is known no better than twice the spread about the circle.
        circle.u95 = max(circle.u95, 2 * circle.sigma)
        var farthest = 0.0
        for c in ordered where c.count >= 2 {
            let e = c.east / Double(c.count) - circle.a, n = c.north / Double(c.count) - circle.b
            farthest = max(farthest, (e * e + n * n).squareRoot())
        }
        let plausible = circle.r >= settings.minSwingRadius && circle.r <= settings.maxSwingRadius
            && circle.sigma <= 0.35 * circle.r
        // Degrees seen never go down: a fit about another centre covers less of the same track.
        // They grow only by an arc every plausible fit of the last `showAfter` covered.
        if plausible {
            // A fit off the run's circle starts a new run: the centres within a quarter of the
            // radius (at least 8 m) and the radii within a quarter of each other.
            let apart = max(8, 0.25 * circle.r)
            if arcRun.contains(where: { f in
                let de = f.a - circle.a, dn = f.b - circle.b
                return (de * de + dn * dn).squareRoot() > apart || abs(f.r - circle.r) > 0.25 * max(f.r, circle.r)
            }) {
                arcRun.removeAll(keepingCapacity: true)
            }
            arcRun.append((now, arc, circle.a, circle.b, circle.r))
            while arcRun.count > 1, now - arcRun[1].at >= settings.showAfter { arcRun.removeFirst() }
            if now - arcRun[0].at >= settings.showAfter {
                arcSeen = max(arcSeen, arcRun.lazy.map(\.arc).min() ?? 0)
            }
        } else {
            arcRun.removeAll(keepingCapacity: true)
        }
        let learnt = now - (since ?? now) >= settings.minLearning && circle.weight >= 10
        let settled = plausible && learnt && arc >= settings.minArc
            && circle.u95 <= max(settings.settleUncertainty, settings.settleFraction * circle.r)
        // Moving: the centre now against the settled centre of `movingSpan` ago (or the oldest
        // since it settled, once it has been settled that long).
        while historyHead < history.count, now - history[historyHead].at > settings.movingSpan { historyHead += 1 }
        if historyHead >= 64, historyHead * 2 >= history.count {
            history.removeFirst(historyHead)
            historyHead = 0
        }
        if !settled, holding(at: now) { return }
        var moving = false
        if settled {
            unsettledSince = nil
            for h in history[historyHead...] {
                let de = h.east - circle.a, dn = h.north - circle.b
                if (de * de + dn * dn).squareRoot() > max(2 * circle.u95, 8) { moving = true; break }
            }
            history.append((now, circle.a, circle.b))
            if settledSince == nil { settledSince = now }
        } else {
            history.removeAll(keepingCapacity: true)
            historyHead = 0
            settledSince = nil
            unsettledSince = nil
        }
        // While the centre stays put, the arc it was settled on is kept: the cells on its circle
        // (within twice the spread about it, at least a cell) are not forgotten.
        keptCircle = settled && !moving ? (circle.a, circle.b, circle.r, max(2 * circle.sigma, settings.cellSize)) : nil
        // Stable: settled, and its centre has stayed put for a whole `movingSpan`. An early fit
        // on a short arc can settle by chance and wander off again; a drag never stays put.
        let stable = settled && !moving && settledSince.map { now - $0 >= settings.movingSpan } ?? false
        let steady = settled && settledSince.map { now - $0 >= settings.showAfter } ?? false
        let d = (circle.a * circle.a + circle.b * circle.b).squareRoot()
        let centre = d > 0
            ? Geodesy.destination(from: origin, bearing: Geodesy.bearing(east: circle.a, north: circle.b), distance: Meters(d))
            : origin
        publish(SwingEstimate(
            centre: centre, uncertainty: Meters(circle.u95), swingRadius: Meters(circle.r),
            farthest: Meters(farthest), spread: Meters(circle.sigma), arc: arc,
            settled: settled, moving: moving, stable: stable, since: since ?? now, at: now,
            arcSeen: arcSeen, steady: steady), at: now)
    }

    /// The cell lies on the circle of a settled estimate that is not moving (`keptCircle`).
    private func onKeptCircle(_ c: Cell) -> Bool {
        guard let k = keptCircle else { return false }
        let e = c.east / Double(c.count) - k.a, n = c.north / Double(c.count) - k.b
        return abs((e * e + n * n).squareRoot() - k.r) <= k.band
    }

    /// What is shown of the swing changes at most once per `holdThrough`: a fit that jumps (a
    /// receiver's glitch, the first minute of a departure) and comes back within it is never
    /// shown, and whatever is shown (words and numbers alike) stays at least that long. The
    /// fits go on underneath (the centres `moving` compares, the settled time).
    private mutating func publish(_ next: SwingEstimate?, at now: Instant) {
        if let since = shownSince, now - since < settings.holdThrough { return }
        if next == nil, estimate == nil { return }
        shownSince = now
        estimate = next
    }

    /// An unsettled fit while the estimate stands settled: within `holdThrough` of the first
    /// such fit the settled estimate stays as it is (true: nothing more to do); past it, the
    /// estimate is unsettled for real.
    private mutating func holding(at now: Instant) -> Bool {
        guard let e = estimate, e.settled else { return false }
        let first = unsettledSince ?? now
        unsettledSince = first
        return now - first < settings.holdThrough
    }

    struct Circle {
        var a: Double, b: Double, r: Double
        /// RMS radial residual, and the 95% radius of the centre's uncertainty.
        var sigma: Double
        var u95: Double
        /// The fit's total weight (full cells count one each).
        var weight: Double
    }

    /// A weighted algebraic (Kasa) fit, then Gauss-Newton steps on the geometric distances,
    /// whose normal matrix also gives the centre's covariance: a short arc leaves the centre
    /// free along its axis, and the uncertainty says so.
    static func fitCircle<C: Collection>(_ cells: C, cap: Int) -> Circle? where C.Element == Cell {
        var pts: [(x: Double, y: Double, w: Double)] = []
        pts.reserveCapacity(cells.count)
        for c in cells {
            let k = Double(c.count)
            pts.append((c.east / k, c.north / k, Double(min(c.count, cap)) / Double(cap)))
        }
        guard pts.count >= 8 else { return nil }
        var sw = 0.0, mx = 0.0, my = 0.0
        for p in pts { sw += p.w; mx += p.w * p.x; my += p.w * p.y }
        mx /= sw
        my /= sw
        // Kasa on centred coordinates: solve [Suu Suv; Suv Svv] c = (1/2)[Suuu+Suvv; Svvv+Svuu].
        var suu = 0.0, svv = 0.0, suv = 0.0, r1 = 0.0, r2 = 0.0
        for p in pts {
            let u = p.x - mx, v = p.y - my, z = u * u + v * v
            suu += p.w * u * u; svv += p.w * v * v; suv += p.w * u * v
            r1 += p.w * u * z; r2 += p.w * v * z
        }
        let det = suu * svv - suv * suv
        guard det > 1e-9 * max(suu * svv, 1e-12) else { return nil }
        var a = mx + 0.5 * (r1 * svv - r2 * suv) / det
        var b = my + 0.5 * (r2 * suu - r1 * suv) / det
        var r = 0.0
        for p in pts { r += p.w * ((p.x - a) * (p.x - a) + (p.y - b) * (p.y - b)).squareRoot() }
        r /= sw
        var normal = [Double](repeating: 0, count: 9)
        var sigma2 = 0.0
        for _ in 0..<4 {
            for i in 0..<9 { normal[i] = 0 }
            var g = (0.0, 0.0, 0.0)
            var rss = 0.0
            for p in pts {
                let dx = p.x - a, dy = p.y - b
                let d = max((dx * dx + dy * dy).squareRoot(), 1e-9)
                let j = (-dx / d, -dy / d, -1.0)
                let res = d - r
                rss += p.w * res * res
                normal[0] += p.w * j.0 * j.0; normal[1] += p.w * j.0 * j.1; normal[2] += p.w * j.0 * j.2
                normal[4] += p.w * j.1 * j.1; normal[5] += p.w * j.1 * j.2; normal[8] += p.w * j.2 * j.2
                g.0 -= p.w * j.0 * res; g.1 -= p.w * j.1 * res; g.2 -= p.w * j.2 * res
            }
            normal[3] = normal[1]; normal[6] = normal[2]; normal[7] = normal[5]
            sigma2 = rss / max(sw - 3, 1)
            guard let step = solve3(normal, [g.0, g.1, g.2]) else { return nil }
            a += step[0]; b += step[1]; r += step[2]
            if abs(step[0]) + abs(step[1]) + abs(step[2]) < 0.01 { break }
        }
        guard a.isFinite, b.isFinite, r.isFinite, r > 0, let inv = invert3(normal) else { return nil }
        // The centre's 2x2 covariance block: its larger eigenvalue, as a 95% radius (2.45 sigma
        // for two dimensions), never below the cell's own size.
        let caa = inv[0] * sigma2, cbb = inv[4] * sigma2, cab = inv[1] * sigma2
        let mean = (caa + cbb) / 2, diff = (caa - cbb) / 2
        let lambda = mean + (diff * diff + cab * cab).squareRoot()
        let u95 = max(2.45 * max(lambda, 0).squareRoot(), 2)
        return Circle(a: a, b: b, r: r, sigma: sigma2.squareRoot(), u95: u95, weight: sw)
    }

    /// Degrees of the circle around (a, b) the cells cover: 360 minus the widest empty gap, in
    /// 10 degree bins; and how many bins hold a cell.
    static func arc<C: Collection>(_ cells: C, a: Double, b: Double) -> (Double, Int) where C.Element == Cell {
        var bins = [Bool](repeating: false, count: 36)
        for c in cells where c.count >= 2 {
            let k = Double(c.count)
            let deg = Geodesy.bearing(east: c.east / k - a, north: c.north / k - b)
            bins[min(Int(deg / 10), 35)] = true
        }
        guard bins.contains(true) else { return (0, 0) }
        var widest = 0, run = 0
        for i in 0..<72 {
            if bins[i % 36] { run = 0 } else { run += 1; widest = max(widest, min(run, 36)) }
        }
        return (Double(36 - widest) * 10, bins.filter { $0 }.count)
    }
}

// MARK: - What is kept across a restart

extension SwingEstimator {
    /// What the estimator has learnt, as of one instant, to be kept across a restart (the
    /// journal's swing record): the cells, the local plane's origin, and how long it has learnt
    /// and been settled. `restore` brings it back, so a restarted box shows the same swing line
    /// and offer without learning again from nothing. Times are ages before that instant: the
    /// monotonic clock restarts with the box.
    public struct Memory: Hashable, Sendable {
        public struct Cell: Hashable, Sendable {
            /// The mean of the readings in the cell, meters east and north of `origin`.
            public var east: Double
            public var north: Double
            public var count: Int
            /// Since the cell was last visited.
            public var age: Duration
            public init(east: Double, north: Double, count: Int, age: Duration) {
                self.east = east
                self.north = north
                self.count = count
                self.age = age
            }
        }
        /// A settled centre of the last `movingSpan`, what `moving` compares the fit with.
        public struct Centre: Hashable, Sendable {
            public var age: Duration
            public var east: Double
            public var north: Double
            public init(age: Duration, east: Double, north: Double) {
                self.age = age
                self.east = east
                self.north = north
            }
        }
        public var origin: Coordinate
        public var learnedFor: Duration
        /// Settled without a break this long (nil: not settled).
        public var settledFor: Duration?
        public var arcSeen: Double
        public var readings: Int
        /// At most 16, oldest first.
        public var centres: [Centre]
        public var cells: [Cell]
        /// The receiver's wander measured about the same anchor (`Watch.swingMemory(at:)` adds
        /// it; nil from the estimator alone, or before it was measured).
        public var wander: Watch.NoiseEstimate.Memory? = nil
        public init(origin: Coordinate, learnedFor: Duration, settledFor: Duration?, arcSeen: Double, readings: Int,
                    centres: [Centre], cells: [Cell]) {
            self.origin = origin
            self.learnedFor = learnedFor
            self.settledFor = settledFor
            self.arcSeen = arcSeen
            self.readings = readings
            self.centres = centres
            self.cells = cells
        }
    }

    /// What has been learnt as of `now`, or nil before the first reading.
    public func memory(at now: Instant) -> Memory? {
        guard let origin, let since else { return nil }
        let ordered = cells.sorted { $0.key < $1.key }.map(\.value)
        let live = history[historyHead...]
        var centres: [Memory.Centre] = []
        let step = max(1, (live.count + 15) / 16)
        for (i, h) in live.enumerated() where i % step == 0 || i == live.count - 1 {
            centres.append(Memory.Centre(age: now - h.at, east: h.east, north: h.north))
        }
        if centres.count > 16 { centres.removeSubrange(15..<(centres.count - 1)) }
        return Memory(
            origin: origin, learnedFor: now - since, settledFor: settledSince.map { now - $0 }, arcSeen: arcSeen,
            readings: readings, centres: centres,
            cells: ordered.map {
                Memory.Cell(east: $0.east / Double($0.count), north: $0.north / Double($0.count), count: $0.count,
                            age: now - $0.lastSeen)
            })
    }

    /// Brings back what `memory` kept, as if learnt up to `now`: the next reading fits the
    /// circle again over the same cells, settled as long as it was.
    public mutating func restore(_ memory: Memory, at now: Instant) {
        reset()
        origin = memory.origin
        since = now - max(memory.learnedFor, .zero)
        settledSince = memory.settledFor.map { now - max($0, .zero) }
        arcSeen = max(memory.arcSeen, 0)
        readings = max(memory.readings, 0)
        for c in memory.centres { history.append((now - max(c.age, .zero), c.east, c.north)) }
        for c in memory.cells where c.count > 0 && c.east.isFinite && c.north.isFinite {
            guard abs(c.east) < 20_000, abs(c.north) < 20_000 else { continue }
            let key = Self.key(c.east, c.north, size: settings.cellSize)
            if cells[key] == nil, cells.count >= settings.maxCells { continue }
            var cell = cells[key] ?? Cell(count: 0, east: 0, north: 0, lastSeen: now - max(c.age, .zero))
            cell.count += c.count
            cell.east += c.east * Double(c.count)
            cell.north += c.north * Double(c.count)
            cells[key] = cell
        }
        // Fitted at once: what was shown before the restart is shown from its first moment. A
        // settled estimate's old cells on its circle were kept; the first fit finds that circle again.
        fit(at: now, forget: memory.settledFor == nil)
        savedAt = now
        savedKey = estimate.map(ShownKey.init)
    }

    /// A new memory is worth keeping: what is shown changed (settled, steady, stable, moving, the
    /// arc seen) since the last one kept, or `saveEvery` has passed while learning.
    public var saveDue: Bool {
        guard let e = estimate else { return false }
        let key = ShownKey(e)
        if key != savedKey { return true }
        return savedAt.map { e.at - $0 >= settings.saveEvery } ?? true
    }

    /// The memory of `at` was handed on to be kept.
    public mutating func saved(at now: Instant) {
        savedAt = now
        savedKey = estimate.map(ShownKey.init)
    }

    struct ShownKey: Hashable, Sendable {
        var settled, steady, stable, moving: Bool
        var arcSeen: Double
        init(_ e: SwingEstimate) {
            settled = e.settled
            steady = e.steady
            stable = e.stable
            moving = e.moving
            arcSeen = e.arcSeen
        }
    }
}

/// What the swing says about the anchor, at the last fit.
public struct SwingEstimate: Hashable, Sendable {
    /// Where the anchor seems to lie.
    public var centre: Coordinate
    /// The 95% radius of the centre's uncertainty.
    public var uncertainty: Meters
    /// The fitted swing radius (anchor to antenna) and the farthest the antenna was seen from
    /// the centre.
    public var swingRadius: Meters
    public var farthest: Meters
    /// The RMS of the antenna's distance about the fitted circle: yaw, the rode's stretch and
    /// the receiver's wander together.
    public var spread: Meters
    /// Degrees of arc this fit's circle covers (about its own centre: it goes down when the
    /// centre moves; what is shown is `arcSeen`).
    public var arc: Double
    /// The arc is wide enough and the centre known well enough to be believed.
    public var settled: Bool
    /// The centre moved by more than its uncertainty lately: a drag, or still learning.
    public var moving: Bool
    /// Settled and still for a whole `movingSpan`: only then is a move of the mark offered.
    public var stable: Bool
    public var since: Instant
    public var at: Instant
    /// The widest arc any plausible fit (a circle between `minSwingRadius` and `maxSwingRadius`,
    /// its spread at most 0.35 of its radius) covered since learning began: never goes down
    /// until the estimator starts again (a new anchorage). 0: no swing seen yet.
    public var arcSeen: Double = 0
    /// Settled for `showAfter` without a break: only then are words about the centre shown.
    public var steady: Bool = false

    /// An alert radius about the centre that holds the swing seen: its farthest point, plus
    /// the centre's own uncertainty, plus the receiver's wander, in whole meters. The wander is
    /// the detector's measured one where it is smaller than twice the spread about the circle:
    /// that spread already holds the receiver's error around the swing (with the yaw and the
    /// rode's stretch), while a wander measured against a misplaced mark also holds the swing's
    /// own coming and going; at least 3 m.
    public func suggestedRadius(wander: Meters? = nil) -> Meters {
        let w = max(min(wander?.value ?? .infinity, 2 * spread.value), 3)
        return Meters((farthest.value + uncertainty.value + w).rounded(.up))
    }
}

// MARK: - 3x3 linear algebra (row-major)

func solve3(_ m: [Double], _ v: [Double]) -> [Double]? {
    guard let inv = invert3(m) else { return nil }
    // Spelled out term by term: Swift 6.0 (the Pi's compiler) can't type-check the one-line sum.
    var x = [0.0, 0.0, 0.0]
    for i in 0..<3 {
        var sum: Double = inv[3 * i] * v[0]
        sum += inv[3 * i + 1] * v[1]
        sum += inv[3 * i + 2] * v[2]
        x[i] = sum
    }
    return x
}

func invert3(_ m: [Double]) -> [Double]? {
    let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
    let det = m[0] * c00 + m[1] * c01 + m[2] * c02
    let scale = abs(m[0]) + abs(m[4]) + abs(m[8])
    guard det.isFinite, abs(det) > 1e-12 * max(scale * scale * scale, 1e-30) else { return nil }
    let inv = [
        c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
        c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
        c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
    ]
    return inv.map { $0 / det }
}
