// libFuzzer target: the control socket's protocol (Sources/Appliance/ControlProtocol.swift, compiled
// as its own module) on arbitrary bytes, split into lines as the server splits its stream. Garbage
// from a socket gets a clear refusal and never a decision: every line parses to a decision or a
// refusal with its reason; every decision it accepts survives being written as a request and
// read back; and every reply is a JSON object a client can read.
@testable import ApplianceControl
import Recordings
import WatchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func controlProtocolFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        let (id, result) = ControlProtocol.parse(Array(line))
        if let id, id.isEmpty || id.utf8.count > ControlProtocol.maxIDLength { fatalError("id \(id) let through") }
        switch result {
        case .success(let decision):
            guard line.count <= ControlProtocol.maxLine else { fatalError("an over-long line was accepted") }
            let again = ControlProtocol.request(id: id ?? "x", decision)
            let (id2, back) = ControlProtocol.parse(Array(again.utf8.filter { $0 != 0x0A }))
            guard id2 == (id ?? "x"), case .success(let d2) = back, d2 == decision else {
                fatalError("\(decision) does not survive a round trip: \(again) -> \(back)")
            }
        case .failure(let why):
            let reply = ControlReply.error(code: why.code, says: why.says)
            let text = reply.json(id: id).text(indented: false)
            guard (try? JSON.parse(bytes: Array(text.utf8))).map({ if case .object = $0 { true } else { false } }) == true else {
                fatalError("a refusal that is not a JSON object: \(text)")
            }
        }
    }
    return 0
}
