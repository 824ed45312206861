import XCTest
@testable import Journal

/// Known answers from RFC 3720 (iSCSI) appendix B.4 and the common "123456789" check value.
final class CRC32CTests: XCTestCase {
    func testCheckValue() {
        XCTAssertEqual(CRC32C.checksum(Array("123456789".utf8)), 0xE306_9283)
    }

    func testRFC3720Vectors() {
        XCTAssertEqual(CRC32C.checksum([UInt8](repeating: 0, count: 32)), 0x8A91_36AA)
        XCTAssertEqual(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)), 0x62A8_AB43)
        XCTAssertEqual(CRC32C.checksum((0..<32).map { UInt8($0) }), 0x46DD_794E)
        XCTAssertEqual(CRC32C.checksum((0..<32).reversed().map { UInt8($0) }), 0x113F_DB5C)
    }

    func testEmptyIsZero() {
        XCTAssertEqual(CRC32C.checksum([UInt8]()), 0)
    }

    func testIncrementalEqualsWhole() {
        let a = Array("anchor ".utf8), b = Array("alert".utf8)
        XCTAssertEqual(CRC32C.finish(CRC32C.update(CRC32C.update(CRC32C.start, a), b)), CRC32C.checksum(a + b))
    }
}
