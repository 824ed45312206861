import WatchCore

/// Why a whole record (its checksum agreed) could not be used.
public enum DecodeFailure: Error, Hashable, Sendable {
    case unknownType(UInt8)
    /// Too short for its fields, or a value out of range (a NaN coordinate, episode 0, a bad code).
    case malformed(RecordType)
}

extension JournalRecord {
    /// The payload bytes: stamp, then this type's fields (Docs/journal-format.md, "Record types").
    public func payload(at stamp: Stamp) -> [UInt8] {
        var w = ByteWriter()
        w.i64(stamp.monotonic.nanoseconds)
        w.i64(stamp.wall.nanoseconds)
        switch self {
        case .segment(let version, let sequence):
            w.u16(version)
            w.u64(sequence)
        case .snapshot(let m):
            var flags: UInt8 = 0
            if m.anchor != nil { flags |= 1 }
            if m.armed { flags |= 2 }
            if m.ringingEpisode != nil { flags |= 4 }
            if m.ringingEpisode != nil && m.snoozed { flags |= 8 }
            w.u8(flags)
            w.coordinate(m.anchor ?? Coordinate(latitude: 0, longitude: 0))
            w.f64(m.radius.value)
            w.u32(UInt32(clamping: m.ringingEpisode ?? 0))
            w.u32(UInt32(clamping: m.lastEpisode))
        case .boot(let after):
            w.u8(after.rawValue)
        case .release, .arm, .disarm, .shutdown:
            break
        case .mark(let anchor, let how):
            w.coordinate(anchor)
            switch how {
            case .here:
                w.u8(0)
            case .offset(let bearing, let distance):
                w.u8(1)
                w.f64(bearing)
                w.f64(distance.value)
            case .at(let c):
                w.u8(2)
                w.coordinate(c)
            case .fromSwing:
                w.u8(3)
            }
        case .radius(let r):
            w.f64(r.value)
        case .alarmStart(let e), .alarmStop(let e):
            w.u32(UInt32(clamping: e))
        case .snooze(let e, let length):
            w.u32(UInt32(clamping: e))
            w.u32(UInt32(clamping: length.nanoseconds / 1_000_000))
        case .verdict(let from, let to, let reason):
            w.u8(WireCode.code(from))
            w.u8(WireCode.code(to))
            w.u8(reason.map(WireCode.code) ?? 0)
        case .faultRaised(let fault):
            w.u8(WireCode.code(fault.kind))
            w.u8(fault.pushes ? 1 : 0)
            w.text(fault.message)
        case .faultCleared(let kind):
            w.u8(WireCode.code(kind))
        case .trackFix(let fix):
            w.i32(Self.e7(fix.position.latitude))
            w.i32(Self.e7(fix.position.longitude))
            w.f32(fix.accuracy.map { Float($0.value) } ?? .nan)
            w.f32(fix.distance.map { Float($0.value) } ?? .nan)
        case .farthest(let m):
            w.f64(m.value)
        case .swing(let m):
            Self.encode(m, into: &w)
        }
        return w.bytes
    }

    /// Decodes a whole record's payload. Fields past the known ones are ignored (later versions
    /// may append); anything short or out of range is malformed, never a guess.
    public static func decode(type code: UInt8, payload: ArraySlice<UInt8>) -> Result<StampedRecord, DecodeFailure> {
        guard let type = RecordType(rawValue: code) else { return .failure(.unknownType(code)) }
        var r = ByteReader(payload)
        guard let mono = r.i64(), let wall = r.i64(), let record = body(type, &r) else {
            return .failure(.malformed(type))
        }
        return .success(StampedRecord(record, at: Stamp(monotonic: Instant(nanoseconds: mono),
                                                       wall: WallTime(nanoseconds: wall))))
    }

    private static func body(_ type: RecordType, _ r: inout ByteReader) -> JournalRecord? {
        switch type {
        case .segment:
            guard let version = r.u16(), let sequence = r.u64() else { return nil }
            return .segment(version: version, sequence: sequence)
        case .snapshot:
            guard let flags = r.u8(), let anchor = r.coordinate(), let radius = r.radius(),
                let ringing = r.u32(), let last = r.u32()
            else { return nil }
            let hasAnchor = flags & 1 != 0, armed = flags & 2 != 0, isRinging = flags & 4 != 0
            // A ringing flag must name an episode, and an episode must not exceed the last handed out.
            guard isRinging == (ringing > 0), ringing <= last else { return nil }
            return .snapshot(WatchMemory(anchor: hasAnchor ? anchor : nil, radius: radius, armed: armed,
                                         ringingEpisode: isRinging ? Int(ringing) : nil, lastEpisode: Int(last),
                                         snoozed: flags & 8 != 0))
        // Version 1 wrote no field; a code this version does not know is not known either.
        case .boot: return .boot(after: r.u8().flatMap(PreviousStop.init(rawValue:)) ?? .unknown)
        case .shutdown: return .shutdown
        case .release: return .release
        case .arm: return .arm
        case .disarm: return .disarm
        case .mark:
            guard let anchor = r.coordinate(), let how = r.u8() else { return nil }
            switch how {
            case 0:
                return .mark(anchor: anchor, how: .here)
            case 1:
                guard let bearing = r.f64(), bearing.isFinite, let distance = r.f64(), distance.isFinite,
                    distance >= 0
                else { return nil }
                return .mark(anchor: anchor, how: .offset(bearing: bearing, distance: Meters(distance)))
            case 2:
                guard let at = r.coordinate() else { return nil }
                return .mark(anchor: anchor, how: .at(at))
            case 3:
                return .mark(anchor: anchor, how: .fromSwing)
            default:
                return nil
            }
        case .radius:
            return r.radius().map { .radius($0) }
        case .alarmStart:
            return r.episode().map { .alarmStart(episode: $0) }
        case .alarmStop:
            return r.episode().map { .alarmStop(episode: $0) }
        case .snooze:
            guard let e = r.episode(), let ms = r.u32() else { return nil }
            return .snooze(episode: e, length: .milliseconds(Int64(ms)))
        case .verdict:
            guard let f = r.u8().flatMap(WireCode.verdictKind), let t = r.u8().flatMap(WireCode.verdictKind),
                let reasonCode = r.u8()
            else { return nil }
            if t == .cantJudge {
                guard let reason = WireCode.cantJudgeReason(reasonCode) else { return nil }
                return .verdict(from: f, to: t, reason: reason)
            }
            guard reasonCode == 0 else { return nil }
            return .verdict(from: f, to: t, reason: nil)
        case .faultRaised:
            guard let kind = r.u8().flatMap(WireCode.faultKind), let pushes = r.u8(), pushes <= 1,
                let message = r.text()
            else { return nil }
            return .faultRaised(Fault(kind, message, pushes: pushes == 1))
        case .faultCleared:
            return r.u8().flatMap(WireCode.faultKind).map { .faultCleared($0) }
        case .trackFix:
            guard let lat = r.i32(), let lon = r.i32(), let acc = r.f32(), let dist = r.f32(),
                let position = Coordinate.validated(latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7)
            else { return nil }
            guard acc.isNaN || (acc.isFinite && acc >= 0), dist.isNaN || (dist.isFinite && dist >= 0) else {
                return nil
            }
            return .trackFix(TrackFix(position: position, accuracy: acc.isNaN ? nil : Meters(Double(acc)),
                                      distance: dist.isNaN ? nil : Meters(Double(dist))))
        case .farthest:
            guard let m = r.f64(), m.isFinite, m >= 0 else { return nil }
            return .farthest(Meters(m))
        case .swing:
            return decodeSwing(&r).map { .swing($0) }
        }
    }

    static func e7(_ degrees: Double) -> Int32 { Int32(clamping: Int64((degrees * 1e7).rounded())) }
}

extension ByteWriter {
    mutating func coordinate(_ c: Coordinate) {
        f64(c.latitude)
        f64(c.longitude)
    }
}

extension ByteReader {
    mutating func coordinate() -> Coordinate? {
        guard let lat = f64(), let lon = f64() else { return nil }
        return Coordinate.validated(latitude: lat, longitude: lon)
    }

    /// A radius is finite and positive; the watch's own range check applies on restore.
    mutating func radius() -> Meters? {
        guard let v = f64(), v.isFinite, v > 0 else { return nil }
        return Meters(v)
    }

    mutating func episode() -> Int? {
        guard let e = u32(), e > 0 else { return nil }
        return Int(e)
    }
}

// MARK: - The swing record (Docs/journal-format.md, "The swing record")

extension JournalRecord {
    /// A cell's mean as a 2 m cell index (i16 each way) and its place in the cell in 1/256ths
    /// (u8 each way): 8 mm, far below what the fit tells apart.
    static let swingGrid = 2.0

    static func encode(_ m: SwingEstimator.Memory, into w: inout ByteWriter) {
        w.coordinate(m.origin)
        w.u32(UInt32(clamping: max(m.learnedFor, .zero).nanoseconds / 1_000_000_000))
        w.u32(m.settledFor.map { UInt32(clamping: max($0, .zero).nanoseconds / 1_000_000_000) } ?? UInt32.max)
        w.u16(UInt16(clamping: Int(max(0, min(m.arcSeen, 360)).rounded())))
        w.u32(UInt32(clamping: m.readings))
        let centres = m.centres.suffix(JournalConstants.maxSwingCentres)
        w.u8(UInt8(centres.count))
        for c in centres {
            w.u16(UInt16(clamping: max(c.age, .zero).nanoseconds / 1_000_000_000))
            w.f32(Float(c.east))
            w.f32(Float(c.north))
        }
        // The cells that fit the grid's range, the most recently visited first when there are
        // too many for one record (the oldest would be forgotten first anyway).
        func inGrid(_ v: Double) -> Bool {
            v.isFinite && Int16(exactly: (v / swingGrid).rounded(.down)) != nil
        }
        var cells = m.cells.filter { $0.count > 0 && inGrid($0.east) && inGrid($0.north) }
        if cells.count > JournalConstants.maxSwingCells {
            cells = Array(cells.enumerated().sorted { ($0.element.age, $0.offset) < ($1.element.age, $1.offset) }
                .prefix(JournalConstants.maxSwingCells).sorted { $0.offset < $1.offset }.map(\.element))
        }
        w.u16(UInt16(cells.count))
        for c in cells {
            let x = (c.east / swingGrid).rounded(.down), y = (c.north / swingGrid).rounded(.down)
            w.i16(Int16(x))
            w.i16(Int16(y))
            w.u8(UInt8(clamping: Int(((c.east / swingGrid - x) * 256).rounded(.down))))
            w.u8(UInt8(clamping: Int(((c.north / swingGrid - y) * 256).rounded(.down))))
            w.u8(UInt8(clamping: c.count))
            w.u8(UInt8(clamping: max(c.age, .zero).nanoseconds / 60_000_000_000))
        }
        // The receiver's wander about the same anchor, after the cells (a reader of version 4
        // ignores it): 28 bytes, 36 from version 6, so a record of 480 cells stays within `maxPayload`.
        if let n = m.wander {
            w.f32(Float(n.level))
            w.f32(Float(n.swing))
            w.f32(Float(n.variance))
            w.f32(Float(n.measuredFor))
            w.f32(n.weakVariance.map(Float.init) ?? .nan)
            w.f32(Float(n.weakFor))
            w.f32(n.usualAccuracy.map(Float.init) ?? .nan)
            // From version 6: the excursion reach and the longest quick outing (8 bytes more).
            w.f32(n.reach.map(Float.init) ?? .nan)
            w.f32(n.outingLongest.map(Float.init) ?? .nan)
        }
    }

    /// The wander fields after a swing record's cells, when there are: nil when the record ends
    /// there (written without them, or by version 4), or when they are not plausible (the swing
    /// is restored and the wander measured again).
    static func decodeWander(_ r: inout ByteReader) -> Watch.NoiseEstimate.Memory? {
        guard let level = r.f32(), let swing = r.f32(), let variance = r.f32(), let measured = r.f32(),
              let weak = r.f32(), let weakFor = r.f32(), let usual = r.f32()
        else { return nil }
        func ok(_ v: Float) -> Bool { v.isFinite && v >= 0 }
        guard ok(level), ok(swing), ok(variance), ok(measured), ok(weakFor), weak.isNaN || ok(weak), usual.isNaN || ok(usual)
        else { return nil }
        var m = Watch.NoiseEstimate.Memory(
            level: Double(level), swing: Double(swing), variance: Double(variance), measuredFor: Double(measured),
            weakVariance: weak.isNaN ? nil : Double(weak), weakFor: Double(weakFor),
            usualAccuracy: usual.isNaN ? nil : Double(usual))
        // Version 6's excursion reach and longest outing; a version-5 record ends before them
        // (the restore then takes the longest outing a quick one can be). Not plausible: both
        // left out, the same as a version-5 record.
        if let reach = r.f32(), let outing = r.f32(), reach.isNaN || ok(reach), outing.isNaN || ok(outing) {
            m.reach = reach.isNaN ? nil : Double(reach)
            m.outingLongest = outing.isNaN ? nil : Double(outing)
        }
        return m
    }

    static func decodeSwing(_ r: inout ByteReader) -> SwingEstimator.Memory? {
        guard let origin = r.coordinate(), let learned = r.u32(), let settled = r.u32(), let arc = r.u16(), arc <= 360,
            let readings = r.u32(), let centreCount = r.u8(), Int(centreCount) <= JournalConstants.maxSwingCentres
        else { return nil }
        var centres: [SwingEstimator.Memory.Centre] = []
        for _ in 0..<centreCount {
            guard let age = r.u16(), let e = r.f32(), let n = r.f32(), e.isFinite, n.isFinite else { return nil }
            centres.append(.init(age: .seconds(Int(age)), east: Double(e), north: Double(n)))
        }
        guard let cellCount = r.u16(), Int(cellCount) <= JournalConstants.maxSwingCells else { return nil }
        var cells: [SwingEstimator.Memory.Cell] = []
        cells.reserveCapacity(Int(cellCount))
        for _ in 0..<cellCount {
            guard let x = r.i16(), let y = r.i16(), let fx = r.u8(), let fy = r.u8(), let count = r.u8(), count > 0,
                let age = r.u8()
            else { return nil }
            // The middle of the 1/256th the mean fell in.
            cells.append(.init(east: (Double(x) + (Double(fx) + 0.5) / 256) * swingGrid,
                               north: (Double(y) + (Double(fy) + 0.5) / 256) * swingGrid,
                               count: Int(count), age: .seconds(60 * Int(age))))
        }
        var memory = SwingEstimator.Memory(
            origin: origin, learnedFor: .seconds(Int(learned)), settledFor: settled == UInt32.max ? nil : .seconds(Int(settled)),
            arcSeen: Double(arc), readings: Int(readings), centres: centres, cells: cells)
        memory.wander = decodeWander(&r)
        return memory
    }
}

extension SwingEstimator.Memory {
    /// The same memory `d` later: every age grows by `d` (never less than nothing).
    func aged(by d: Duration) -> Self {
        let d = max(d, .zero)
        var m = self
        m.learnedFor += d
        m.settledFor = m.settledFor.map { $0 + d }
        for i in m.centres.indices { m.centres[i].age += d }
        for i in m.cells.indices { m.cells[i].age += d }
        return m
    }
}
