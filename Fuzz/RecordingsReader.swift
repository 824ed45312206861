// libFuzzer target: the replay readers (NMEA 0183 and gpsd JSON, chosen from the content) on
// arbitrary bytes. Two targets share it with different seeds (recordings-nmea,
// recordings-gpsd-json). Every reading that comes out must be one the watch can take, and every
// rejection must say why.
import Recordings
import WatchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func recordingsReaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let log = try LogReader.read(bytes: bytes)
        guard !log.fixes.isEmpty, log.linesRead > 0 else { fatalError("a log with no fixes was accepted") }
        for fix in log.fixes {
            guard fix.t.isFinite else { fatalError("time \(fix.t)") }
            let r = fix.reading
            if let p = r.position, Coordinate.validated(latitude: p.latitude, longitude: p.longitude) == nil {
                fatalError("position out of range: \(p)")
            }
            if r.mode == .noFix, r.position != nil { fatalError("no fix with a position") }
            if let a = r.accuracy, !(a.value.isFinite && a.value >= 0) { fatalError("accuracy \(a)") }
        }
        for (why, count) in log.refused where why.isEmpty || count <= 0 { fatalError("a refusal without a reason") }
        var watch = Watch()
        for reading in log.readings.prefix(200) { _ = watch.handle(.reading(reading), at: reading.received) }
    } catch {
        if error.description.isEmpty { fatalError("a rejection without words") }
    }
    return 0
}
