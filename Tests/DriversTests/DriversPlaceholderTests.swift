import XCTest
final class DriversPlaceholderTests: XCTestCase { func testBuilds() {} }
