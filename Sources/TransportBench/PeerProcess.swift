import Foundation
import ProcessSupport

/// This same executable started with other arguments (a demo or benchmark peer).
///
/// The peer's standard input is a pipe the parent holds: closing it (``release()``) tells a
/// peer that waits for it that it may close its sockets. Closing a socket right after its last
/// send can lose messages in libzmq 4.3, so senders wait for the receiver's word.
public final class PeerProcess: Sendable {
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    public let arguments: [String]
    private let process: Process
    private let input: Pipe
    private let exit: AsyncStream<Int32>

    /// Starts the peer.
    public init(arguments: [String]) throws {
        self.arguments = arguments
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        let input = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        let (exit, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { process in
            continuation.yield(process.terminationStatus)
            continuation.finish()
        }
        self.process = process
        self.input = input
        self.exit = exit
        try process.run()
    }

    /// Closes the peer's standard input.
    public func release() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits for the peer to exit; throws if it failed.
    public func wait() async throws {
        var status: Int32 = -1
        for await code in exit { status = code }
        guard status == 0 else {
            throw Failed(description: "peer \(arguments.joined(separator: " ")) exited with \(status)")
        }
    }

    /// Starts a peer that needs no release and waits for it.
    public static func run(arguments: [String]) async throws {
        let peer = try PeerProcess(arguments: arguments)
        peer.release()
        try await peer.wait()
    }

    /// In the peer: blocks a dedicated thread until the parent releases this process.
    public static func waitForRelease() async throws {
        _ = try await onDedicatedThread("wait-release") { FileHandle.standardInput.readDataToEndOfFile() }
    }
}
