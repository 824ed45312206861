import Foundation
import XCTest

/// Where the built `anchor-alert` is: `ANCHOR_ALERT_BIN`, or beside the test bundle (SwiftPM
/// builds the products the tests depend on into the same directory).
enum TestBinary {
    static var anchorAlert: URL {
        if let path = ProcessInfo.processInfo.environment["ANCHOR_ALERT_BIN"] { return URL(fileURLWithPath: path) }
        let bundle = Bundle(for: Marker.self).bundleURL
        for dir in [bundle, bundle.deletingLastPathComponent(), bundle.appendingPathComponent("debug")] {
            let candidate = dir.appendingPathComponent("anchor-alert")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return bundle.deletingLastPathComponent().appendingPathComponent("anchor-alert")
    }

    private final class Marker {}
}
