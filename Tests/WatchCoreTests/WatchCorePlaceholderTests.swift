import XCTest
final class WatchCorePlaceholderTests: XCTestCase { func testBuilds() {} }
