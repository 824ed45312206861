import XCTest
final class AppliancePlaceholderTests: XCTestCase { func testBuilds() {} }
