import WatchCore

/// Reads gpsd's JSON TPV reports (a `gpspipe -w` log or gpsd's regression .chk files).
struct GPSDJSONAssembler {
    private(set) var fixes: [RecordedLog.Fix] = []
    private var firstTime: Double?
    private var lastT = 0.0
    static let maxStep = 86_400.0

    /// Returns the reason when the line is refused; nil when taken or not a TPV.
    mutating func take(_ line: Substring) -> String? {
        // The live path's one TPV reader, so a recorded report means what it meant on the socket.
        let bytes = Array(line.utf8)
        guard let report = bytes.withUnsafeBufferPointer({ GPSDFix.tpv($0) }) else {
            guard let value = try? JSONValue.parse(String(line)) else { return "malformed JSON" }
            return value["class"]?.string == "TPV" ? "TPV the box can't read" : nil
        }
        let time = report.time
        // Without a time (gpsd's no-fix reports) the report belongs just after the previous one.
        let t: Double
        if let time {
            let start = firstTime ?? time
            // A report more than a day after the previous one is a clock gone wrong (the fuzzer
            // found years 1012 and 2024 side by side), not a night: refuse it.
            if firstTime != nil, time - start - lastT > Self.maxStep { return "time jumps more than a day" }
            firstTime = start
            t = max(time - start, lastT)
        } else {
            t = lastT
        }
        lastT = t
        let received = Instant(seconds: t)
        // The box's own translation: the same accuracy, mode, speed and course rules as `run`.
        let reading = report.reading(received: received)
        fixes.append(.init(t: t, reading: reading))
        return nil
    }
}
