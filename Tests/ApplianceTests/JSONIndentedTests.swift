@testable import Appliance
import Drivers
import Recordings
import WatchCore
import XCTest

/// The snapshot file's text is a contract with its readers: `indentedBytes` (written straight
/// into bytes, for the loop's cost) must say byte for byte what the String-built indented text
/// said, written here that plain way.
final class JSONIndentedTests: XCTestCase {
    private func plain(_ v: JSON, depth: Int = 0) -> String {
        let pad = String(repeating: "  ", count: depth + 1)
        let close = String(repeating: "  ", count: depth)
        switch v {
        case .array(let items) where !items.isEmpty:
            return "[\n" + items.map { pad + plain($0, depth: depth + 1) }.joined(separator: ",\n") + "\n" + close + "]"
        case .object(let fields) where !fields.isEmpty:
            return "{\n" + fields.map { pad + plainString($0.0) + ": " + plain($0.1, depth: depth + 1) }.joined(separator: ",\n")
                + "\n" + close + "}"
        case .array: return "[]"
        case .object: return "{}"
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return JSONValue.format(n)
        case .string(let s): return plainString(s)
        }
    }

    private func plainString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    private let strings = ["", "Holding", "Won't ring: alarm is off", "54°20.478'N 013°30.390'E", "a \"quoted\" word",
                           "back\\slash", "line\nbreak\r\ttab", "\u{01}\u{1f}\u{7f}", "ünïcödé ⚓ 🛥️", "\u{0}"]
    private let numbers: [Double] = [0, -0.0, 1, -1, 0.5, -0.25, 54.3413021, 13.5065009, 1_796_013_264.7247526, 1e-8,
                                     -4e-8, 123456789012.5, 1e300, -1e300, .nan, .infinity, 30, 2.5e15]

    private func random(_ rng: inout SplitMix, depth: Int) -> JSON {
        switch rng.next() % (depth > 3 ? 4 : 7) {
        case 0: return .null
        case 1: return .bool(rng.next() % 2 == 0)
        case 2: return .number(numbers[Int(rng.next() % UInt64(numbers.count))])
        case 3: return .string(strings[Int(rng.next() % UInt64(strings.count))])
        case 4, 5:
            return .object((0..<Int(rng.next() % 4)).map { _ in
                (strings[Int(rng.next() % UInt64(strings.count))], random(&rng, depth: depth + 1))
            })
        default: return .array((0..<Int(rng.next() % 4)).map { _ in random(&rng, depth: depth + 1) })
        }
    }

    func testTheIndentedBytesAreThePlainIndentedText() {
        var rng = SplitMix(seed: 26)
        for _ in 0..<3000 {
            let v = random(&rng, depth: 0)
            XCTAssertEqual(String(decoding: v.indentedBytes, as: UTF8.self), plain(v))
            XCTAssertEqual(v.text(indented: true), plain(v))
        }
    }

    func testTheSnapshotsWholeTextIsThePlainIndentedText() {
        for (status, now) in [Statuses.holding(), Statuses.checking(), Statuses.snoozed()] {
            let s = StatusSnapshot(status: status, now: now, wall: WallTime(seconds: 1_800_000_000.123),
                                   writer: .init(bootID: "boot-a", pid: 42, monotonic: 5000.25),
                                   validFor: StatusSnapshot.validity(interval: .seconds(30)),
                                   checks: SystemsCheck.boxRows(status: status, fitted: [.gpsd, .buzzer], local: []))
            XCTAssertEqual(s.json.text(indented: true), plain(s.json))
            XCTAssertEqual(String(decoding: SnapshotWriter.text(rest: SnapshotWriter.rest(s), live: s.live), as: UTF8.self),
                           plain(s.json) + "\n")
        }
    }

    func testNumbersAndStringsIntoBytesAreTheirText() {
        for n in numbers + (0..<2000).map({ Double($0) * 0.0137 - 13.3 }) {
            var out: [UInt8] = [0x41]
            JSONValue.format(n, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), "A" + JSONValue.format(n), "\(n)")
        }
        for s in strings {
            var out: [UInt8] = []
            JSONValue.quote(s, into: &out)
            var text = ""
            JSONValue.quote(s, into: &text)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), text)
            XCTAssertEqual(text, plainString(s))
        }
    }
}
