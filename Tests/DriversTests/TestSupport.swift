import Glibc
import WatchCore
import XCTest

/// A fresh directory under /tmp for one test's files.
func makeTemporaryDirectory(_ prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let p = mkdtemp(&template) else { throw TestFileError("mkdtemp failed: errno \(errno)") }
    return String(cString: p)
}

struct TestFileError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

func readBytes(_ path: String) throws -> [UInt8] {
    guard let f = fopen(path, "rb") else { throw TestFileError("\(path): cannot open (errno \(errno))") }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        out.append(contentsOf: buffer[0..<n])
    }
    return out
}

func writeText(_ path: String, _ text: String) throws {
    guard let f = fopen(path, "wb") else { throw TestFileError("\(path): cannot create (errno \(errno))") }
    defer { fclose(f) }
    let bytes = Array(text.utf8)
    guard fwrite(bytes, 1, bytes.count, f) == bytes.count else { throw TestFileError("\(path): short write") }
}

func monotonic() -> Instant {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Instant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
}

/// The samples of a 16-bit PCM WAV file as alsa-lib's file plugin writes it.
struct WAV {
    var channels: Int
    var sampleRate: Int
    var bitsPerSample: Int
    var samples: [Int16]

    init(_ bytes: [UInt8]) throws {
        func u32(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24 }
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        guard bytes.count >= 12, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WAVE".utf8) else {
            throw TestFileError("not a RIFF/WAVE file (\(bytes.count) bytes)")
        }
        var i = 12
        var format: (Int, Int, Int)?
        var data: ArraySlice<UInt8>?
        while i + 8 <= bytes.count {
            let id = String(decoding: bytes[i..<(i + 4)], as: UTF8.self)
            var size = u32(i + 4)
            if id == "fmt " { format = (u16(i + 10), u32(i + 12), u16(i + 22)) }
            if id == "data" {
                // A header never rewritten (the plugin closed early) says 0 or too much: take the rest.
                if size == 0 || i + 8 + size > bytes.count { size = bytes.count - i - 8 }
                data = bytes[(i + 8)..<(i + 8 + size)]
                break
            }
            i += 8 + size + (size & 1)
        }
        guard let (ch, rate, bits) = format, let data else { throw TestFileError("no fmt or data chunk") }
        channels = ch
        sampleRate = rate
        bitsPerSample = bits
        var s: [Int16] = []
        s.reserveCapacity(data.count / 2)
        var j = data.startIndex
        while j + 1 < data.endIndex {
            s.append(Int16(bitPattern: UInt16(data[j]) | UInt16(data[j + 1]) << 8))
            j += 2
        }
        samples = s
    }
}

/// Removes a test's directory and the plain files in it.
func removeDirectory(_ path: String) {
    guard !path.isEmpty, let dir = opendir(path) else { return }
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { unlink(path + "/" + name) }
    }
    closedir(dir)
    rmdir(path)
}
