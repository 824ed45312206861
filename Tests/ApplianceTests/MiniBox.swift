#if canImport(Glibc)
import Glibc
#endif
import Posix
@testable import Appliance
import Drivers
import Journal
import WatchCore
import XCTest

/// The loop's handling of the control socket and the snapshot, in miniature, exactly as
/// Docs/commands.md tells the lead to wire it: poll, service, handle, journal, sync, reply.
/// The journal is a fake whose `sync` the test calls (or lets happen at once).
final class MiniBox {
    static let origin = Coordinate(latitude: 54.3413, longitude: 13.5065)

    let directory: String
    var watch: Watch
    let server: ControlServer
    let writer: SnapshotWriter
    /// From this machine's monotonic time: the snapshot's writer time is the box's `now`, and
    /// the readers (`status`, `check`, `snooze`) on this boot judge it against the clock.
    var now = MonotonicClock.now()
    /// Records appended and not yet synced, with the receipts waiting on them.
    var unsynced: [(ControlServer.Ticket, Receipt)] = []
    var journal: [String] = []
    var synced = 0
    /// When false, receipts wait for `sync()`: the fake journal's "made durable" hook.
    var autoSync = true
    var answered: [ControlServer.Ticket: ControlOutcome] = [:]

    init(directory: String, settings: WatchSettings = .scripted,
         fitted: Set<SystemsCheck.Component> = [.gpsd, .receiver, .buzzer, .armSwitch, .button, .ledRing, .journal, .watchdog],
         absent: Set<SystemsCheck.Component> = []) throws {
        self.directory = directory
        watch = Watch(settings: settings)
        server = try ControlServer(directory: directory)
        writer = SnapshotWriter(directory: directory, interval: .seconds(30), fitted: fitted, absent: absent)
    }

    deinit { server.close() }

    func handle(_ event: Event) -> [Action] {
        let actions = watch.handle(event, at: now)
        writer.publish(watch.status(at: now), now: now)
        return actions
    }

    /// Steady fixes at `east` meters from the origin, one a second, so a mark has evidence.
    func fixes(east: Double, count: Int = 5) {
        for _ in 0..<count {
            now = now + .seconds(1)
            let p = Geodesy.destination(from: Self.origin, bearing: 90, distance: Meters(east))
            _ = handle(.reading(GPSReading(mode: .threeD, position: p, accuracy: 3, received: now)))
        }
    }

    /// Marked, armed, then dragged until the alarm rings.
    func ringing() {
        fixes(east: 0)
        _ = handle(.decision(.mark(.here)))
        _ = handle(.armSwitch(on: true))
        // Long enough for any sane evidence window and confirmation (the defaults: 20 s, 60 s).
        fixes(east: 80, count: 120)
        precondition(watch.alarm.kind == .ringing, "the harness boat should be ringing, is \(watch.alarm)")
    }

    /// One turn of the loop: poll the server's descriptors up to `timeoutMs`, service them,
    /// hand each decision to the watch, answer refusals at once and receipts after the sync.
    func turn(timeoutMs: Int32 = 20) {
        var requests = server.pollRequests()
        var fds = requests.map { pollfd(fd: $0.fd, events: $0.wanted, revents: 0) }
        let n = poll(&fds, nfds_t(fds.count), timeoutMs)
        var ready: [PollDescriptor] = []
        if n > 0 {
            for (i, p) in fds.enumerated() where p.revents != 0 {
                ready.append(PollDescriptor(fd: requests[i].fd, wanted: requests[i].wanted, happened: p.revents))
            }
        }
        requests = []
        for request in server.serviceRequests(ready: ready, now: now) {
            let outcome = ControlOutcome(handle(request.event))
            answered[request.ticket] = outcome
            switch outcome {
            case .accepted(let receipt, _):
                journal.append("\(request.ticket) \(receipt.decision.name)")
                unsynced.append((request.ticket, receipt))
            case .refused(let d, let why):
                server.reply(to: request.ticket, .refused(d, why))
            case .nothing:
                server.reply(to: request.ticket, .nothingToDo)
            }
        }
        if autoSync { sync() }
    }

    /// The fake journal's fdatasync returned: now, and only now, the receipts go out.
    func sync() {
        synced += unsynced.count
        for (ticket, receipt) in unsynced { server.reply(to: ticket, .receipt(receipt, saved: true, now: now)) }
        unsynced.removeAll()
    }

    /// Runs turns until `done` or `limit` seconds pass.
    func run(until done: () -> Bool, limit: Double = 10) {
        let end = BoxIdentity.monotonicSeconds() + limit
        while !done() && BoxIdentity.monotonicSeconds() < end { turn() }
    }
}

/// A raw client of the control socket for protocol tests.
final class RawClient {
    let socket: FileDescriptor
    let fd: Int32

    init(_ directory: String) throws {
        socket = try UnixSocket.connect(to: ControlProtocol.socketPath(directory))
        try socket.setNonBlocking()
        fd = socket.rawValue
    }

    func close() { socket.close() }

    func send(_ text: String) {
        _ = try? socket.send(text.utf8)
    }

    func send(bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            guard let n = try? socket.send(bytes[off...]) else { return }
            off += n
        }
    }

    private var buffer: [UInt8] = []
    /// True once the box hung up.
    private(set) var hungUp = false

    /// Reads whatever is there now, without waiting.
    func drain() {
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { buffer += buf[0..<n]; continue }
            if n == 0 { hungUp = true }
            return
        }
    }

    /// The next reply line, if one has arrived.
    func reply() -> JSON? {
        drain()
        guard let nl = buffer.firstIndex(of: 0x0A) else { return nil }
        let line = Array(buffer[..<nl])
        buffer.removeFirst(nl + 1)
        return try? JSON.parse(bytes: line)
    }

    /// Turns the box until a reply arrives.
    func awaitReply(_ box: MiniBox, limit: Double = 5) -> JSON? {
        var got: JSON?
        box.run(until: {
            got = reply()
            return got != nil
        }, limit: limit)
        return got
    }
}

/// A fresh directory under /tmp, removed by the test's teardown.
func temporaryDirectory(_ name: String) -> String {
    var template = Array("/tmp/aa-\(name)-XXXXXX".utf8CString)
    let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(p != nil, "mkdtemp failed")
    return String(cString: p!)
}

func removeTree(_ path: String) {
    guard path.hasPrefix("/tmp/aa-") else { return }
    _ = runProgram(["/bin/rm", "-rf", path])
}

/// Runs a program to completion; returns its exit code and output.
@discardableResult
func runProgram(_ argv: [String], env: [String]? = nil, whileWaiting: (() -> Void)? = nil) -> (code: Int32, out: String, err: String) {
    var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
    pipe(&outPipe)
    pipe(&errPipe)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
    posix_spawn_file_actions_addclose(&actions, outPipe[0])
    posix_spawn_file_actions_addclose(&actions, errPipe[0])
    var cargs = argv.map { strdup($0) } + [nil]
    let environment = (env ?? []).map { strdup($0) } + [nil]
    var pid: pid_t = 0
    let rc: Int32
    if env != nil {
        var e = environment
        rc = posix_spawn(&pid, argv[0], &actions, nil, &cargs, &e)
    } else {
        rc = posix_spawn(&pid, argv[0], &actions, nil, &cargs, environ)
    }
    Glibc.close(outPipe[1])
    Glibc.close(errPipe[1])
    for p in cargs { free(p) }
    for p in environment { free(p) }
    posix_spawn_file_actions_destroy(&actions)
    guard rc == 0 else { return (-1, "", "spawn failed: \(rc)") }
    _ = fcntl(outPipe[0], F_SETFL, O_NONBLOCK)
    _ = fcntl(errPipe[0], F_SETFL, O_NONBLOCK)
    var out: [UInt8] = [], err: [UInt8] = []
    var status: Int32 = 0
    func drain(_ fd: Int32, into b: inout [UInt8]) {
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            b += buf[0..<n]
        }
    }
    while true {
        drain(outPipe[0], into: &out)
        drain(errPipe[0], into: &err)
        let w = waitpid(pid, &status, WNOHANG)
        if w == pid { break }
        if let whileWaiting { whileWaiting() } else { usleep(2_000) }
    }
    drain(outPipe[0], into: &out)
    drain(errPipe[0], into: &err)
    Glibc.close(outPipe[0])
    Glibc.close(errPipe[0])
    let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return (code, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

/// The anchor-alert binary built beside the test bundle.
/// The built `anchor-alert`; `ANCHOR_ALERT_BIN` names another (an older build, to show a test
/// fails without a change), as `TestBinary` does.
var applianceBinary: String {
    if let path = getenv("ANCHOR_ALERT_BIN") { return String(cString: path) }
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    let exe = String(cString: Array(buf[0..<max(0, n)]) + [0])
    var dir = exe
    while let slash = dir.lastIndex(of: "/"), !dir.hasSuffix(".build/debug"), !dir.hasSuffix(".build/release"), dir != "" {
        dir = String(dir[..<slash])
        if access(dir + "/anchor-alert", X_OK) == 0 { return dir + "/anchor-alert" }
    }
    return dir + "/anchor-alert"
}

/// Real statuses from a real watch, for encoder tests (WatchStatus has no public init: the
/// snapshot is only ever built from what a watch says).
enum Statuses {
    static func watch(_ steps: (inout Watch, inout Instant) -> Void) -> (Watch, Instant) {
        var s = WatchSettings.scripted
        s.radius = 30
        var w = Watch(settings: s)
        var now = Instant(seconds: 100)
        steps(&w, &now)
        return (w, now)
    }

    static func fix(_ w: inout Watch, _ now: inout Instant, east: Double, count: Int) {
        for _ in 0..<count {
            now = now + .seconds(1)
            let p = Geodesy.destination(from: MiniBox.origin, bearing: 90, distance: Meters(east))
            _ = w.handle(.reading(GPSReading(mode: .threeD, position: p, accuracy: 3.5, received: now)), at: now)
        }
    }

    static func holding() -> (WatchStatus, Instant) {
        let (w, now) = watch { w, now in
            fix(&w, &now, east: 0, count: 5)
            _ = w.handle(.decision(.mark(.here)), at: now)
            _ = w.handle(.armSwitch(on: true), at: now)
            fix(&w, &now, east: 2, count: 3)
        }
        return (w.status(at: now), now)
    }

    static func checking() -> (WatchStatus, Instant) {
        let (w, now) = watch { w, now in
            fix(&w, &now, east: 0, count: 5)
            _ = w.handle(.decision(.mark(.here)), at: now)
            _ = w.handle(.armSwitch(on: true), at: now)
            // 10 m beyond the radius: 2.3 of the scripted rule's 8 a second, three fixes is checking.
            fix(&w, &now, east: 40, count: 3)
        }
        return (w.status(at: now), now)
    }

    /// Ringing, then snoozed (episode 1), with a siren fault raised.
    static func snoozed() -> (WatchStatus, Instant) {
        let (w, now) = watch { w, now in
            fix(&w, &now, east: 0, count: 5)
            _ = w.handle(.decision(.mark(.here)), at: now)
            _ = w.handle(.armSwitch(on: true), at: now)
            fix(&w, &now, east: 80, count: 30)
            _ = w.handle(.decision(.snooze(episode: w.alarm.episode ?? 0)), at: now)
            _ = w.handle(.faultRaised(Fault(.siren, "Siren: no sound device", pushes: true)), at: now)
        }
        return (w.status(at: now), now)
    }
}
