// libFuzzer target: the journal reader on arbitrary bytes (scripts/fuzz.sh builds and runs it).
// Three views of each input, so the fuzzer gets past the checksum: the bytes as a segment, the
// bytes as one payload with a valid frame (first byte the type), and that payload decoded raw.
// Any invariant broken is a crash, which libFuzzer reports with the input.
import Journal

@_cdecl("LLVMFuzzerTestOneInput")
public func journalReaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    check(segment: bytes)
    if let type = bytes.first, type != 0, bytes.count - 1 <= JournalConstants.maxPayload {
        let payload = Array(bytes.dropFirst())
        check(segment: RecordFrame.encode(type: type, payload: payload) + bytes)
        if case .success(let stamped) = JournalRecord.decode(type: type, payload: payload[...]) {
            // What decodes re-encodes to something that decodes to the same record.
            let again = stamped.record.payload(at: stamped.stamp)
            guard case .success(let back) = JournalRecord.decode(type: type, payload: again[...]), back == stamped else {
                fatalError("re-encoding changed \(stamped)")
            }
        }
    }
    return 0
}

/// Every byte is accounted for: whole records, bytes lost, or the cut tail; every note is a
/// sentence in the product's words.
func check(segment bytes: [UInt8]) {
    var recordBytes = 0
    var lastOffset = -1
    let summary = SegmentScanner.scan(bytes, segment: "fuzz") { offset, stamped in
        guard offset > lastOffset else { fatalError("records out of order") }
        lastOffset = offset
        recordBytes += RecordFrame.encode(type: stamped.record.type.rawValue, payload: [UInt8](repeating: 0, count: 0)).count
        var memory = WatchMemory.fresh()
        memory.apply(stamped.record)
    }
    guard summary.validEnd <= bytes.count, summary.tailBytes == (summary.cutTail ? bytes.count - summary.validEnd : 0),
        summary.lostBytes + summary.tailBytes <= bytes.count
    else { fatalError("bytes unaccounted: \(summary) of \(bytes.count)") }
    for note in summary.notes where !note.description.hasPrefix("Journal: ") {
        fatalError("a note not in the product's words: \(note)")
    }
    _ = recordBytes
}
