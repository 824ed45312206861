// libFuzzer target: the configuration parser (Sources/Appliance/Config, compiled as its own
// module) on arbitrary text. A bad file never stops the box: parsing always returns a
// configuration, and every problem is a line that names itself.
@testable import ApplianceConfig

@_cdecl("LLVMFuzzerTestOneInput")
public func configParserFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let loaded = Configuration.parse(text)
    for problem in loaded.problems where !problem.hasPrefix("Configuration: ") {
        fatalError("a problem not in the product's words: \(problem)")
    }
    return 0
}
