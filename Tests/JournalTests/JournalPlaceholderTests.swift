import XCTest
final class JournalPlaceholderTests: XCTestCase { func testBuilds() {} }
