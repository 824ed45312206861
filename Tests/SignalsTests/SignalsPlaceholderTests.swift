import XCTest
final class SignalsPlaceholderTests: XCTestCase { func testBuilds() {} }
