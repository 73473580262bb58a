import Foundation

/// The `ribcity` executable beside the test binary (built by `swift build --build-tests`), for
/// tests that run real processes.
public let ribcityBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    .map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("ribcity").path }
