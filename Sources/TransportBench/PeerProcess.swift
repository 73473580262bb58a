import Foundation

/// Starts this same executable with other arguments (a demo or benchmark peer) and waits for it.
public struct PeerProcess: Sendable {
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    public let arguments: [String]

    public init(arguments: [String]) {
        self.arguments = arguments
    }

    /// Runs the peer to completion; throws if it exits non-zero.
    public func run() async throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { process in
                if process.terminationStatus == 0 {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: Failed(
                        description: "peer \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)"))
                }
            }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
