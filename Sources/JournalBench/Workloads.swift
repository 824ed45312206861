import Posix
import Journal
import WatchCore

/// The benchmark's workloads; static so Swift 6 keeps them off the main actor.
enum Workloads {
    static func monotonicNow() -> Double { MonotonicClock.now().seconds }

    static var fs: PosixFileSystem { PosixFileSystem() }
    static let anchor = Coordinate(latitude: 50.15, longitude: -5.07)
    static let epoch = 1_717_200_000.0

    static func stamp(_ t: Double) -> Stamp { Stamp(monotonic: Instant(seconds: t), wall: WallTime(seconds: epoch + t)) }

    static func temporaryDirectory(_ base: String) -> String {
        try? fs.makeDirectory(base)
        return (try? Files.makeTemporaryDirectory(base + "/journal-bench-")) ?? base
    }

    static func removeTree(_ dir: String) {
        for name in (try? fs.list(dir)) ?? [] { try? Files.unlink(dir + "/" + name) }
        try? Files.removeDirectory(dir)
    }

    static func directoryBytes(_ dir: String) -> (bytes: Int, files: Int) {
        let names = (try? fs.list(dir)) ?? []
        return (names.reduce(0) { $0 + ((try? fs.size(dir + "/" + $1)) ?? 0) }, names.count)
    }

    /// A fix near the anchor, jittering a few meters as a boat swinging at anchor does.
    static func swinging(_ t: Double, _ rng: inout UInt64) -> Coordinate {
        rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let bearing = Double(rng >> 40 & 0xFFFF) / 65536 * 360
        return Geodesy.destination(from: anchor, bearing: bearing, distance: Meters(5 + 3 * sinDeg(t)))
    }

    static func sinDeg(_ d: Double) -> Double { Math.sin(d * .pi / 180) }

    /// One hour of holding at `hz`, through a real Watch and the journal exactly as the loop runs it.
    static func holdingHour(hz: Double, base: String) -> (stats: Journal.Stats, cpu: Double) {
        let dir = temporaryDirectory(base)
        defer { removeTree(dir) }
        let (journal, _) = Journal.open(directory: dir, fileSystem: fs, at: stamp(0))
        var watch = Watch()
        var rng: UInt64 = 1
        var t = 0.0
        func turn(_ e: Event) {
            let actions = watch.handle(e, at: Instant(seconds: t))
            _ = journal.record(actions, pace: TrackPace(of: watch), at: stamp(t))
        }
        for _ in 0..<10 {
            t += 1
            turn(.reading(GPSReading(mode: .threeD, position: swinging(t, &rng), accuracy: 3, received: Instant(seconds: t))))
        }
        turn(.decision(.mark(.here)))
        turn(.armSwitch(on: true))
        let before = journal.stats
        let start = monotonicNow()
        let step = 1 / hz
        let end = t + 3600
        while t < end {
            t += step
            turn(.reading(GPSReading(mode: .threeD, position: swinging(t, &rng), accuracy: 3, received: Instant(seconds: t))))
            if let due = journal.nextDeadline, due <= Instant(seconds: t) { _ = journal.flushIfDue(at: stamp(t)) }
        }
        let cpu = monotonicNow() - start
        precondition(watch.verdict == .holding, "the bench boat must hold: \(watch.verdict)")
        var s = journal.stats
        s.bytesWritten -= before.bytesWritten
        s.dataSyncs -= before.dataSyncs
        s.directorySyncs -= before.directorySyncs
        s.segmentsStarted -= before.segmentsStarted
        s.tracksKept -= before.tracksKept
        s.tracksDropped -= before.tracksDropped
        journal.close()
        return (s, cpu)
    }

    /// `days` of nights: each day a boot, a mark, an arm, 24 hours of holding at the calm pace, and
    /// every fifth day ten minutes of a drag kept at every fix (1 Hz), then a disarm.
    static func buildJournal(days: Int, dir: String) -> Int {
        var t = 0.0
        var rng: UInt64 = 7
        var records = 0
        for day in 0..<days {
            let (journal, _) = Journal.open(directory: dir, fileSystem: fs, at: stamp(t))
            _ = journal.commit([.mark(anchor: anchor, how: .here), .radius(40), .arm], at: stamp(t + 1))
            records += 5
            let end = t + 86_400
            t += 2
            while t < end {
                let c = swinging(t, &rng)
                journal.track(TrackFix(position: c, accuracy: 3, distance: Geodesy.distance(anchor, c)), pace: .calm, at: stamp(t))
                records += 1
                t += 10
                _ = journal.flushIfDue(at: stamp(t))
            }
            if day % 5 == 4 {
                for i in 0..<600 {
                    let c = Geodesy.destination(from: anchor, bearing: 200, distance: Meters(Double(i) * 0.2))
                    journal.track(TrackFix(position: c, accuracy: 3, distance: Meters(Double(i) * 0.2)), pace: .attention, at: stamp(t))
                    records += 1
                    t += 1
                    _ = journal.flushIfDue(at: stamp(t))
                }
                _ = journal.commit([.alarmStart(episode: day), .snooze(episode: day, length: .seconds(300))], at: stamp(t))
                records += 2
            }
            _ = journal.commit([.disarm], at: stamp(t))
            records += 1
            _ = journal.flush(at: stamp(t))
            journal.close()
            t += 60
        }
        return records
    }

    /// Spawns this program with --restore-only and times it from spawn to exit.
    static func timeRestoreProcess(_ dir: String) -> Double? {
        let start = monotonicNow()
        guard let pid = try? Process.spawn("/proc/self/exe", ["--restore-only", dir]) else { return nil }
        return Process.wait(pid) == .ended(status: 0) ? monotonicNow() - start : nil
    }
}
