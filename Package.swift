// swift-tools-version:6.0
// Swift 6.0 is the Pi's compiler (Debian trixie's swiftlang 6.0.3): nothing newer may be used.
import PackageDescription

// The box's own code uses neither Swift concurrency nor the string-processing library (regexes,
// `ranges(of:)`): built without their implicit imports, `anchor-alert` does not load
// libswift_Concurrency, libdispatch, libBlocksRuntime, libswift_StringProcessing and
// libswift_RegexParser (their pages were about 1.8 MB of the box's peak RSS). For the targets
// linked into it; the benches, the test support and the tests keep the defaults.
let lean: [SwiftSetting] = [.unsafeFlags([
    "-Xfrontend", "-disable-implicit-concurrency-module-import",
    "-Xfrontend", "-disable-implicit-string-processing-module-import",
])]

let package = Package(
    name: "AnchorAlert",
    products: [
        .executable(name: "anchor-alert", targets: ["Appliance"]),
        .executable(name: "anchor-bench", targets: ["Bench"]),
    ],
    targets: [
        // The watch: states, evidence rules, decisions, words. Standard library only.
        .target(name: "WatchCore", swiftSettings: lean, linkerSettings: [.linkedLibrary("m")]),
        // The one room for the system boundary (after apple/swift-system): with the C wrappers
        // below, the only target that imports Glibc. Errno and the one EINTR policy, descriptors
        // that close once, whole-file reads and atomic writes, the clocks, poll and the loop's
        // timerfd and signalfd, threads, sockets, processes, number and XML text.
        .target(name: "Posix", dependencies: ["WatchCore", "CLinux"], swiftSettings: lean),
        // Readers for recorded GPS logs (NMEA 0183, gpsd JSON) and the one translator from a gpsd
        // report to a reading, shared by the gpsd driver. Standard library only.
        .target(name: "Recordings", dependencies: ["WatchCore"], swiftSettings: lean),
        // The crash-safe append-only journal: format, recovery, rotation. No Foundation.
        .target(name: "Journal", dependencies: ["WatchCore", "Posix"], swiftSettings: lean),
        // What the box shows and sounds: ring renderer, pixel encoders, sound patterns. Pure.
        .target(name: "LightsAndSounds", dependencies: ["WatchCore"], swiftSettings: lean),
        // NMEA 0183 alert sentences (ALF, ALC, ALR out; ACN, ACK in): framing and encoding. Pure.
        .target(name: "NMEA0183", dependencies: ["WatchCore"], swiftSettings: lean),

        // C libraries, each behind one thin wrapper file in Drivers (CLinux behind Posix).
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // Linux-only headers that Swift's Glibc module leaves out (timerfd, signalfd).
        .systemLibrary(name: "CLinux"),
        // Silences alsa-lib's own stderr messages (a variadic callback Swift cannot define).
        .target(name: "CALSAShim", linkerSettings: [.linkedLibrary("asound")]),
        // The only code that knows whether libgpiod's v1 or v2 API is present.
        .target(name: "CGPIOShim", linkerSettings: [.linkedLibrary("gpiod")]),
        // libmosquitto, dlopen'ed only when MQTT is used (<mosquitto.h> from libmosquitto-dev to
        // build; libmosquitto1 to run it): not linked, so a box without MQTT never maps it or
        // the libssl and libcrypto it brings.
        .target(name: "CMosquittoShim"),

        // Real and simulated devices, each a small protocol the event loop polls.
        .target(
            name: "Drivers",
            dependencies: ["WatchCore", "Posix", "LightsAndSounds", "Recordings", "CALSA", "CALSAShim", "CGPIOShim", "CMosquittoShim"],
            swiftSettings: lean
        ),
        // Test fixtures for a real gpsd: gpsfake on a free port, NMEA builders, a small poll loop.
        // A regular target so that any test target (drivers, end-to-end) can use it.
        .target(name: "GPSDTestSupport", dependencies: ["Drivers", "WatchCore", "Posix"]),
        // The journal's byte-level fake disk (crash, injected errors, a disk that dies), for the
        // tests and the fuzz targets only: not linked into the box.
        .target(name: "JournalTestSupport", dependencies: ["Journal", "Posix"]),
        // What the tests measure sound and light with: tones in samples, a ring frame as SVG.
        .target(name: "LightsAndSoundsTestSupport", dependencies: ["LightsAndSounds", "Posix"]),
        // The binary: event loop, configuration, command-line surfaces.
        .executableTarget(
            name: "Appliance",
            dependencies: ["WatchCore", "Posix", "Recordings", "Journal", "LightsAndSounds", "Drivers", "NMEA0183"],
            swiftSettings: lean
        ),
        // Detection and cost benchmarks: the watch core against peers' rules.
        .executableTarget(name: "Bench", dependencies: ["WatchCore", "Posix", "Recordings"]),
        // Journal costs: bytes and syncs per hour of holding, restore time of a 30-day journal.
        .executableTarget(name: "JournalBench", dependencies: ["WatchCore", "Posix", "Journal"]),

        .testTarget(name: "WatchCoreTests", dependencies: ["WatchCore"]),
        .testTarget(name: "PosixTests", dependencies: ["Posix", "WatchCore"]),
        .testTarget(name: "RecordingsTests", dependencies: ["Recordings"]),
        .testTarget(name: "JournalTests", dependencies: ["Journal", "JournalTestSupport", "Posix"]),
        .testTarget(name: "LightsAndSoundsTests", dependencies: ["LightsAndSounds", "LightsAndSoundsTestSupport", "WatchCore"]),
        .testTarget(name: "NMEA0183Tests", dependencies: ["NMEA0183", "WatchCore"]),
        .testTarget(name: "DriversTests", dependencies: ["Drivers", "Posix", "LightsAndSounds", "LightsAndSoundsTestSupport", "WatchCore", "Recordings", "GPSDTestSupport"]),
        .testTarget(
            name: "ApplianceTests",
            dependencies: ["Appliance", "WatchCore", "Posix", "Recordings", "Journal", "JournalTestSupport", "GPSDTestSupport"],
            // Read in place by path (#filePath), not bundled.
            exclude: ["Fixtures"]
        ),
    ]
)
