// libFuzzer target: the gpsd stream reader (Sources/Drivers/GPSD's line classifier, the live
// path's one-pass TPV reader and the fix translation, compiled as their own module) on
// arbitrary bytes split into lines as gpsd sends them. A gpsd gone mad gets a safe answer: every line classifies or is ignored, and every fix
// that comes out of a TPV's numbers is a reading the watch can take (a position in range, an
// accuracy that is finite and not negative, or no fix at all).
@testable import DriversGPSD
import WatchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func gpsdStreamFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var watch = Watch()
    var t = Instant.zero
    for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(200) {
        var line = Array(raw)
        while let last = line.last, last == 0x0D || last == 0x20 { line.removeLast() }
        if line.isEmpty { continue }
        guard let message = line.withUnsafeBufferPointer({ GPSDMessage.classify($0) }) else { continue }
        switch message {
        case .tpv(let f):
            t = t + .milliseconds(100)
            let r = f.reading(received: t)
            if let p = r.position, Coordinate.validated(latitude: p.latitude, longitude: p.longitude) == nil {
                fatalError("position out of range: \(p)")
            }
            if r.mode == .noFix, r.position != nil { fatalError("no fix with a position") }
            if let a = r.accuracy, !(a.value.isFinite && a.value >= 0) { fatalError("accuracy \(a)") }
            if let s = r.speed, !(s.isFinite && s >= 0) { fatalError("speed \(s)") }
            _ = watch.handle(.reading(r), at: t)
        case .devices(let n) where n < 0: fatalError("\(n) devices")
        default: break
        }
    }
    return 0
}
