import Recordings
import WatchCore
import XCTest

/// `replay`, the benchmark and `run` read a gpsd TPV with one reader (`GPSDFix.tpv`), so a report
/// can't mean one thing on the socket and another in a recorded log (issue 25: three readers
/// disagreed on duplicate keys).
final class OneTPVReaderTests: XCTestCase {
    static let lines = [
        // A key given twice: the live reader takes the last.
        #"{"class":"TPV","mode":3,"time":"2019-04-12T10:15:00.000Z","lat":54.1,"lat":54.2,"lon":13.2,"eph":4,"eph":9}"#,
        #"{"class":"TPV","mode":2,"mode":3,"time":"2019-04-12T10:15:00.000Z","lat":54.1,"lon":13.2,"speed":0.1,"speed":4}"#,
        // The class not first, spaces around the separators, a nested object and an array.
        #"{"device":"/dev/ttyUSB0", "mode" : 3 ,"class":"TPV","time":"2019-04-12T10:15:00.000Z","x":{"lat":1},"lat":54.1,"lon":13.2,"y":[1,2]}"#,
        // A mode written as a decimal, a track out of range, a negative accuracy.
        #"{"class":"TPV","mode":3.0,"time":"2019-04-12T10:15:00.000Z","lat":54.1,"lon":13.2,"eph":-1,"epx":3,"epy":4,"track":400}"#,
    ]

    func testARecordedTPVIsReadAsTheLiveReaderReadsIt() throws {
        for line in Self.lines {
            let live = Array(line.utf8).withUnsafeBufferPointer { GPSDFix.tpv($0) }
            let recorded = try LogReader.read(bytes: Array(line.utf8))
            XCTAssertEqual(recorded.fixes.count, live == nil ? 0 : 1, line)
            guard let live, let fix = recorded.fixes.first else { continue }
            XCTAssertEqual(fix.reading, live.reading(received: Instant(seconds: fix.t)), line)
        }
    }
}
