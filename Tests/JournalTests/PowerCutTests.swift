import WatchCore
import XCTest
@testable import Journal
import JournalTestSupport

/// Power cuts at random moments of a scripted night, driven through a real `Watch`, on a file
/// system that forgets everything not synced. After each cut, the restored watch must equal the
/// watch at its last acknowledged (synced) turn.
final class PowerCutTests: XCTestCase {
    /// Small segments so cuts land inside rotations and compactions too.
    var limits: JournalLimits {
        var l = JournalLimits()
        l.segmentBytes = 1024
        l.totalBytes = 4096
        l.calmFlushAge = .seconds(10)
        l.attentionFlushAge = .seconds(5)
        return l
    }

    /// The whole night with no cut: every turn is acknowledged, the journal's memory follows the
    /// watch at every step, and every kind of record is written.
    func testUncutNightKeepsMemoryInStepWithTheWatch() throws {
        let night = ScriptedNight()
        let fs = SimulatedFileSystem()
        let (journal, recovery) = Journal.open(directory: testDirectory, limits: limits, fileSystem: fs, at: stamp(0))
        var runner = NightRunner(journal: journal, restored: recovery.memory, at: 0)
        runner.kinds = []
        for (t, event) in night.events {
            XCTAssertTrue(runner.run(event, at: t), "turn \(runner.turns) at \(t)")
            XCTAssertEqual(journal.memory, WatchMemory(of: runner.watch), "turn \(runner.turns) at \(t)")
            // A fix that sets a new farthest is never thinned out of the track.
            XCTAssertEqual(journal.farthest, runner.watch.farthest, "turn \(runner.turns) at \(t)")
        }
        // The journal's own structure, not an action's record.
        for type in RecordType.allCases where ![.segment, .snapshot, .boot, .shutdown, .farthest].contains(type) {
            XCTAssertTrue(runner.kinds!.contains(type), "the night never wrote \(type)")
        }
        XCTAssertGreaterThanOrEqual(runner.watch.lastEpisode, 3, "rang, re-rang after a snooze, rang again")
        XCTAssertGreaterThan(journal.stats.segmentsStarted, 5, "small segments rotated")
        XCTAssertGreaterThan(journal.stats.segmentsDeleted, 0, "and compacted")
        let total = try fs.list(testDirectory).reduce(0) { $0 + (try fs.size(testDirectory + "/" + $1)) }
        XCTAssertLessThanOrEqual(total, limits.totalBytes + limits.segmentBytes)
        let (_, again) = Journal.open(directory: testDirectory, limits: limits, fileSystem: fs, at: stamp(9999))
        XCTAssertEqual(again.memory, WatchMemory(of: runner.watch))
        // The farthest survives the restart, to the track's 32-bit precision (the scripted night
        // ends released: none; FarthestRestartTests restarts with one).
        if let farthest = runner.watch.farthest {
            XCTAssertEqual(again.farthest?.value ?? -1, farthest.value, accuracy: 0.001)
        } else {
            XCTAssertNil(again.farthest)
        }
        var restarted = Watch(settings: ScriptedNight.settings)
        _ = restarted.restore(again, at: Instant(seconds: 9999))
        XCTAssertEqual(restarted.farthest, again.farthest)
        print("power-cut: the scripted night has \(night.events.count) events, \(fs.operations) file operations")
    }

    func testRandomPowerCuts() {
        let night = ScriptedNight()
        // Count the file operations of a whole night, to draw crash points from.
        let probe = SimulatedFileSystem()
        let (pj, pr) = Journal.open(directory: testDirectory, limits: limits, fileSystem: probe, at: stamp(0))
        var pRunner = NightRunner(journal: pj, restored: pr.memory, at: 0)
        for (t, e) in night.events { _ = pRunner.run(e, at: t) }
        let totalOps = probe.operations

        var rng = SplitMix64(seed: 2024)
        let trials = 2400
        var strict = 0, torn = 0, ringingAtCut = 0, inFlightSurvived = 0
        var points = Set<Int>()
        for trial in 0..<trials {
            let fs = SimulatedFileSystem()
            let (journal, recovery) = Journal.open(directory: testDirectory, limits: limits, fileSystem: fs, at: stamp(0))
            var runner = NightRunner(journal: journal, restored: recovery.memory, at: 0)
            let cut = Int.random(in: 1...totalOps, using: &rng)
            points.insert(cut)
            fs.dieAtOperation = cut
            var cutAt = 0.0
            for (t, e) in night.events {
                cutAt = t
                if !runner.run(e, at: t) || fs.isDead { break }
            }
            // Half the cuts forget all unsynced bytes; half keep a random part of them, as a real
            // card may, sometimes followed by zeros or garbage.
            let tornMode = trial % 2 == 1
            if tornMode {
                torn += 1
                var local = SplitMix64(seed: UInt64(trial))
                fs.simulateCrash { unsynced in
                    let keep = Array(unsynced.prefix(Int.random(in: 0...unsynced.count, using: &local)))
                    switch Int.random(in: 0..<3, using: &local) {
                    case 0: return keep
                    case 1: return keep + [UInt8](repeating: 0, count: Int.random(in: 1...600, using: &local))
                    default: return keep + (0..<Int.random(in: 1...600, using: &local)).map { _ in UInt8.random(in: 0...255, using: &local) }
                    }
                }
            } else {
                strict += 1
                fs.simulateCrash()
            }
            let restartAt = cutAt + 5
            let (reopened, restored) = Journal.open(directory: testDirectory, limits: limits, fileSystem: fs, at: stamp(restartAt))
            XCTAssertNil(reopened.failure, "trial \(trial)")
            var acceptable = [runner.acknowledged]
            if tornMode, let flight = runner.inFlight {
                var m = flight.before
                for r in flight.records {
                    m.apply(r)
                    acceptable.append(m)
                }
            }
            guard acceptable.contains(restored.memory) else {
                XCTFail("trial \(trial) cut at op \(cut) (t \(cutAt), torn \(tornMode)): restored \(restored.memory), acknowledged \(runner.acknowledged), notes \(restored.notes)")
                if trial > 50 { return }
                continue
            }
            if restored.memory != runner.acknowledged { inFlightSurvived += 1 }

            // The restored watch rings again at once if it was ringing or snoozed.
            var watch = Watch(settings: ScriptedNight.settings)
            let actions = watch.restore(restored.memory, at: Instant(seconds: restartAt))
            if let episode = restored.memory.ringingEpisode, restored.memory.anchor != nil {
                ringingAtCut += 1
                XCTAssertEqual(watch.alarm, .ringing(episode: episode), "trial \(trial)")
                XCTAssertTrue(actions.contains(.alarmSound(on: true)), "trial \(trial)")
            }
            XCTAssertEqual(watch.anchor, restored.memory.anchor)
            XCTAssertEqual(watch.radius, restored.memory.radius)

            // The recovered journal keeps working: a decision after restart survives the next cut.
            let s = stamp(restartAt + 1)
            let result = reopened.record(watch.handle(.decision(.setRadius(77)), at: s.monotonic), pace: TrackPace(of: watch), at: s)
            XCTAssertEqual(result.saved, .saved, "trial \(trial)")
            fs.simulateCrash()
            let (_, second) = Journal.open(directory: testDirectory, limits: limits, fileSystem: fs, at: stamp(restartAt + 10))
            // The journal keeps that the episode's last answer was a snooze (the watch rings again
            // all the same: a restart ends a snooze), which the watch itself no longer shows.
            var expected = WatchMemory(of: watch)
            expected.snoozed = expected.ringingEpisode != nil && expected.ringingEpisode == restored.memory.ringingEpisode && restored.memory.snoozed
            XCTAssertEqual(second.memory, expected, "trial \(trial) after the second cut")
        }
        print("power-cut: \(trials) crash points tried (\(points.count) distinct of \(totalOps) file operations; \(strict) forgetting all unsynced bytes, \(torn) keeping a torn part); \(ringingAtCut) restored ringing; \(inFlightSurvived) kept the in-flight turn")
    }
}
