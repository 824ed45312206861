import XCTest
final class RecordingsPlaceholderTests: XCTestCase { func testBuilds() {} }
