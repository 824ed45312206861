#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Drivers
import LightsAndSounds
import WatchCore
import XCTest

/// The buzzer and the watchdog keep time while every network peer misbehaves at once: the
/// real `EventLoop` and the box `run` builds (`Wiring.parts`, its `[nmea]` and `[mqtt]`
/// sections enabled), the alarm ringing, an MQTT output on a real mosquitto that
/// is stopped (SIGSTOP at 2 s: TCP accepts, nothing answers) and then killed (at 4.5 s), a second MQTT output on a
/// black-holed address (a listener whose queue is full, so its SYNs are dropped and the connect
/// hangs), and the NMEA output with a plotter that never reads. The deterministic bound: the
/// loop's thread never sleeps anywhere but in its poll (its voluntary context switches, from
/// the kernel, counted between the end of one poll and the start of the next, are zero). The
/// timing itself is measured and printed; it is judged only where a lapse would fail on any
/// machine (a buzzer step lost, the watchdog's interval missed).
final class NetworkOutageTimingTests: XCTestCase {
    func testTheBuzzerAndTheWatchdogKeepTimeWhileTheBrokerHangsDiesAndAPlotterNeverReads() throws {
        let directory = temporaryDirectory("outage")
        defer { removeTree(directory) }
        let mosquitto = try Broker(directory: directory)
        defer { withExtendedLifetime(mosquitto) {} }
        let broker = mosquitto.pid, brokerPort = mosquitto.port
        // libmosquitto is loaded when the first client is made, before the loop turns (as `run`
        // attaches MQTT before its loop): here too, before the ringing below starts the clock.
        XCTAssertNil(MQTTClient.unavailable, "libmosquitto loads")

        // The black hole: a listener with a backlog of 0, its one place taken and never accepted.
        let hole = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(hole) }
        var addr = try XCTUnwrap(InetSocket.address("127.0.0.1", port: 0))
        XCTAssertEqual(InetSocket.withSockaddr(addr) { bind(hole, $0, $1) }, 0)
        XCTAssertEqual(listen(hole, 0), 0)
        let holePort = try XCTUnwrap(InetSocket.boundPort(hole))
        addr = try XCTUnwrap(InetSocket.address("127.0.0.1", port: holePort))
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
        defer { close(filler) }
        _ = InetSocket.withSockaddr(addr) { connect(filler, $0, $1) }

        // The box, ringing, with a 1 s watchdog: the NMEA output and an MQTT output on the
        // broker from its configuration, and a second MQTT output, on the black hole, of the
        // test's own.
        var config = Configuration()
        config.nmea.enabled = true
        config.nmea.listen = "127.0.0.1"
        config.nmea.port = 0
        config.nmea.repeatEvery = 0.02  // so the plotter that never reads fills its buffers within seconds
        config.mqtt.enabled = true
        config.mqtt.port = brokerPort
        config.mqtt.keepalive = 5  // libmosquitto's least
        config.mqtt.box = "outage"
        config.runtime.statusInterval = 0.25
        var blackHoled: MQTTOutput!
        let ringing = try Self.ringingBox(config) { wiring, parts in
            var m = config.mqtt
            m.port = holePort
            let snapshot = try XCTUnwrap(parts.lazy.compactMap { $0 as? SnapshotWriter }.first)
            blackHoled = MQTTOutput(settings: m, boxName: "hole", interval: .milliseconds(250), now: wiring.now, snapshot: snapshot)
            return [blackHoled]
        }
        defer { ringing.cleanUp() }
        let (box, buzzer, start) = (ringing.box, ringing.buzzer, ringing.start)
        let nmea = try XCTUnwrap(box.parts.lazy.compactMap { $0 as? NMEAOutput }.first, "the configuration's NMEA output")
        let mqtt = try XCTUnwrap(box.parts.lazy.compactMap { $0 as? MQTTOutput }.first, "the configuration's MQTT output")
        nmea.outboxLimit = 2048
        let sleeper = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(sleeper) }
        var small: Int32 = 1024
        setsockopt(sleeper, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let nmeaAddr = try XCTUnwrap(InetSocket.address("127.0.0.1", port: try XCTUnwrap(nmea.port)))
        XCTAssertEqual(InetSocket.withSockaddr(nmeaAddr) { connect(sleeper, $0, $1) }, 0)

        let loop = try EventLoop()
        let runtime = BoxRuntime(box: box)

        var connectedBeforeStop = 0
        var stoppedAt: Instant?, killedAt: Instant?
        ringing.script.steps = [
            (start + .milliseconds(2000), {
                connectedBeforeStop = mqtt.connections
                stoppedAt = MonotonicClock.now()
                kill(broker, SIGSTOP)
            }),
            (start + .milliseconds(4500), {
                killedAt = MonotonicClock.now()
                kill(broker, SIGKILL)
            }),
            (start + .milliseconds(7500), { _ = pthread_kill(pthread_self(), SIGTERM) }),
        ]

        let counting = Counting(runtime)
        loop.run(counting)

        // Each misbehaviour really happened.
        XCTAssertGreaterThanOrEqual(connectedBeforeStop, 1, "the box was on the broker before it was stopped")
        XCTAssertNotNil(stoppedAt)
        XCTAssertNotNil(killedAt)
        XCTAssertEqual(mqtt.row.status, .attention, "after the kill the row says the broker is away: \(mqtt.row.answer)")
        XCTAssertEqual(blackHoled.connections, 0, "the black-holed broker never answered: \(blackHoled.row.answer)")
        XCTAssertGreaterThanOrEqual(nmea.droppedClients, 1, "the plotter that never reads was dropped")

        judge("through the outage", counting: counting, buzzer: buzzer, pings: ringing.pings(), start: start)
    }

    /// The same ringing loop with no network output, for comparison on the same machine.
    func testTheSameLoopWithTheNetworkOff() throws {
        let ringing = try Self.ringingBox(Configuration())
        defer { ringing.cleanUp() }
        let start = ringing.start
        let loop = try EventLoop()
        ringing.script.steps = [(start + .milliseconds(7500), { _ = pthread_kill(pthread_self(), SIGTERM) })]
        let counting = Counting(BoxRuntime(box: ringing.box))
        loop.run(counting)
        judge("with the network off", counting: counting, buzzer: ringing.buzzer, pings: ringing.pings(), start: start, turns: 10)
    }

    /// The box `run` builds from `config` (`Wiring.parts`), its alarm ringing (as after a
    /// restart with it latched), with no GPS, the buzzer fitted, the journal on a simulated disk,
    /// the runtime directory on tmpfs (as the box's /run/anchor-alert is: an ext4 /tmp may sleep
    /// in a write), the console on non-blocking sinks as `run` has it, a 1 s watchdog and the
    /// test's script; `extra` adds parts of the test's own.
    struct Ringing {
        let box: Box
        let buzzer: LoopNeverWaitsTests.Buzzer
        let start: Instant
        let script: LoopNeverWaitsTests.Script
        let pings: () -> [Instant]
        let cleanUp: () -> Void
    }

    static func ringingBox(_ base: Configuration,
                           extra: (Wiring, [Part]) throws -> [Part] = { _, _ in [] }) throws -> Ringing {
        var template = Array("/dev/shm/aa-outage-XXXXXX".utf8CString)
        let shm = try XCTUnwrap(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        var config = base
        config.watchSettings.radius = 30
        config.journal.directory = "/journal"
        config.runtime.directory = shm
        Console.loop = (ConsoleSink(.standardOutput), ConsoleSink(.standardError))
        let start = MonotonicClock.now()
        var wiring = Wiring(config: config, now: start)
        wiring.probe = SystemsProbe(journalDirectory: shm, sysfs: shm, runRoot: shm)
        let journal = wiring.journal(fileSystem: FlakyFileSystem()).log
        let buzzer = LoopNeverWaitsTests.Buzzer()
        let devices = Wiring.Devices(drivers: [LoopNeverWaitsTests.Script([])], buzzer: buzzer, fitted: [.buzzer, .watchdog])
        final class Pings { var at: [Instant] = [] }
        let pings = Pings()
        let watchdog = Watchdog(interval: .seconds(1), start: start, ping: { pings.at.append(MonotonicClock.now()) })
        let script = LoopNeverWaitsTests.Script([])
        let parts = wiring.parts(devices, journal: journal)
        let box = wiring.box(devices, journal: journal, parts: parts + (try extra(wiring, parts)) + [watchdog, script])
        // Judged from the ring on: the buzzerAndSiren sets the line low when it is built.
        let ringing = MonotonicClock.now()
        box.restore(anchor: Coordinate(latitude: 54, longitude: 13), radius: 30, armed: true, ringingEpisode: 1,
                    lastEpisode: 1, now: ringing)
        XCTAssertTrue(box.buzzerAndSiren.isAlarmSounding)
        return Ringing(box: box, buzzer: buzzer, start: ringing, script: script, pings: { pings.at }, cleanUp: {
            Console.loop = nil
            runProgram(["/bin/rm", "-rf", shm])
        })
    }

    /// The deterministic bound (no sleep but poll's), then the buzzer's and the watchdog's
    /// timing, printed.
    func judge(_ label: String, counting: Counting, buzzer: LoopNeverWaitsTests.Buzzer, pings: [Instant], start: Instant,
               turns: Int = 30, file: StaticString = #filePath, line: UInt = #line) {
        let wakeups = counting.turns
        let sleeps = counting.sleptOutsidePoll
        // The deterministic bound: no sleep but poll's.
        print(String(format: "loop \(label): \(wakeups) turns, \(counting.sleptInPoll) slept in poll, \(sleeps) slept outside it; longest turn %.2f ms CPU, %.2f ms wall",
                     counting.longestTurnCPU * 1000, counting.longestTurnWall * 1000))
        XCTAssertGreaterThan(wakeups, turns, file: file, line: line)
        XCTAssertEqual(sleeps, 0, "the loop's thread slept outside its poll: \(counting.sleepers.prefix(5))", file: file, line: line)
        // And no turn's own work is long: CPU time, which another process's load barely moves.
        XCTAssertLessThan(counting.longestTurnCPU, 0.05, "a turn took \(counting.longestTurnCPU) s of CPU \(label)", file: file, line: line)

        // The buzzer's 0.2 s steps, from the first to the SIGTERM.
        let changes = buzzer.changes.filter { $0.0 >= start }
        XCTAssertGreaterThanOrEqual(changes.count, 30, "about 37 level changes in 7.5 s of ringing, got \(changes.count)", file: file, line: line)
        var errors: [Double] = []
        for (a, b) in zip(changes, changes.dropFirst()) {
            XCTAssertNotEqual(a.1, b.1)
            errors.append(abs((b.0 - a.0).seconds - 0.2))
        }
        errors.sort()
        guard !errors.isEmpty, pings.count > 1 else { return XCTFail("the buzzer or the watchdog never moved \(label)", file: file, line: line) }
        let worst = errors.last ?? 0
        var gaps = zip(pings, pings.dropFirst()).map { ($1 - $0).seconds }
        gaps.sort()
        print(String(format: "buzzer \(label): %d steps, off 0.2 s by median %.2f ms, 95th %.2f ms, worst %.2f ms; watchdog: %d pings, gaps %.3f to %.3f s",
                     errors.count, errors[errors.count / 2] * 1000, errors[errors.count * 95 / 100] * 1000, worst * 1000,
                     pings.count, gaps.first ?? 0, gaps.last ?? 0))
        // Timing depends on the machine's load, so it is printed, not judged, beyond what would
        // be a failure on any machine: a step lost (0.2 s late) or a watchdog interval missed.
        XCTAssertLessThan(worst, 0.2, "no buzzer step lost \(label)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(pings.count, 13, file: file, line: line)
        XCTAssertLessThan(gaps.last ?? 1, 1.0, "the 1 s watchdog never lapses \(label)", file: file, line: line)
    }

    /// Debian's mosquitto on a free loopback port, killed when the test lets go of it.
    final class Broker {
        let pid: pid_t
        let port: Int
        init(directory: String) throws {
            guard access("/usr/sbin/mosquitto", X_OK) == 0 else {
                throw XCTSkip("mosquitto is not installed (scripts/packages/network.txt)")
            }
            port = try NetworkOutageTimingTests.freePort()
            let conf = "\(directory)/mosquitto.conf"
            let fd = open(conf, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            try FileDescriptor(borrowing: fd).writeAll(Array("listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n".utf8))
            close(fd)
            pid = try XCTUnwrap(NetworkOutageTimingTests.spawn(["/usr/sbin/mosquitto", "-c", conf]))
            XCTAssertTrue(NetworkOutageTimingTests.waitForListener(port: port), "mosquitto listens")
        }
        deinit {
            kill(pid, SIGKILL)
            var st: Int32 = 0
            waitpid(pid, &st, 0)
        }
    }

    /// The runtime, with the loop's thread's voluntary context switches counted between the
    /// end of one poll (the turn's `serve`) and the start of the next (`nextDeadline`, the
    /// loop's first call of a turn): every time the thread slept anywhere but in poll.
    final class Counting: LoopClient {
        let inner: BoxRuntime
        private(set) var turns = 0
        private(set) var sleptOutsidePoll = 0
        private(set) var sleptInPoll = 0
        private var polled: Int?
        private var turnStart: Int?
        private var lastReady = ""
        private var faultsAtTurnStart = (minor: 0, major: 0)
        /// The turns that slept outside poll, and what was ready in them.
        private(set) var sleepers: [String] = []
        init(_ inner: BoxRuntime) { self.inner = inner }

        /// The most CPU time one turn took (from the end of its poll to the start of the next).
        private(set) var longestTurnCPU: Double = 0
        private(set) var longestTurnWall: Double = 0
        private var cpuAtTurnStart: Double?
        private var wallAtTurnStart: Double?

        func nextDeadline(now: Instant) -> Instant? {
            if let c = cpuAtTurnStart, let w = wallAtTurnStart {
                longestTurnCPU = max(longestTurnCPU, NetworkOutageTimingTests.threadCPU() - c)
                longestTurnWall = max(longestTurnWall, MonotonicClock.now().seconds - w)
            }
            cpuAtTurnStart = nil
            let v = voluntarySwitches()
            if let turnStart, v > turnStart {
                sleptOutsidePoll += v - turnStart
                let f = NetworkOutageTimingTests.faults()
                sleepers.append("turn \(turns) (ready: \(lastReady.isEmpty ? "timer" : lastReady); faults in it: \(f.minor - faultsAtTurnStart.minor) minor, \(f.major - faultsAtTurnStart.major) major)")
            }
            turnStart = nil
            polled = v
            return inner.nextDeadline(now: now)
        }
        func pollSources() -> [Pollable] { inner.pollSources() }
        func serve(_ ready: [(Pollable, [PollDescriptor])], now: Instant) {
            let v = voluntarySwitches()
            if let polled { sleptInPoll += v - polled }
            turnStart = v
            faultsAtTurnStart = NetworkOutageTimingTests.faults()
            turns += 1
            cpuAtTurnStart = NetworkOutageTimingTests.threadCPU()
            wallAtTurnStart = now.seconds
            lastReady = ready.map { "\(type(of: $0.0))" }.joined(separator: ",")
            inner.serve(ready, now: now)
        }
        func signal(_ number: Int32, now: Instant) -> Bool { inner.signal(number, now: now) }
    }

    /// The calling thread's page faults (/proc/thread-self/stat's minflt and majflt): a major
    /// one waited for a page from the disk, a sleep.
    static func faults() -> (minor: Int, major: Int) {
        guard let text = Files.readText("/proc/thread-self/stat"), let close = text.lastIndex(of: ")") else { return (-1, -1) }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command: state(3) ppid pgrp session tty tpgid flags minflt(10) cminflt majflt(12).
        guard fields.count > 9 else { return (-1, -1) }
        return (Int(fields[7]) ?? -1, Int(fields[9]) ?? -1)
    }

    /// The calling thread's CPU time, in seconds.
    static func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The calling thread's voluntary context switches: each time it slept in the kernel.
    static func voluntarySwitches() -> Int {
        guard let text = Files.readText("/proc/thread-self/status") else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
            return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? -1
        }
        return -1
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        let addr = try XCTUnwrap(InetSocket.address("127.0.0.1", port: 0))
        XCTAssertEqual(InetSocket.withSockaddr(addr) { bind(fd, $0, $1) }, 0)
        return try XCTUnwrap(InetSocket.boundPort(fd))
    }

    static func waitForListener(port: Int) -> Bool {
        for _ in 0..<100 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            if let a = InetSocket.address("127.0.0.1", port: port), InetSocket.withSockaddr(a, { connect(fd, $0, $1) }) == 0 { return true }
            usleep(50_000)
        }
        return false
    }

    static func spawn(_ argv: [String]) -> pid_t? {
        var pid: pid_t = 0
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        return posix_spawn(&pid, argv[0], &actions, nil, &cargs, environ) == 0 ? pid : nil
    }
}
