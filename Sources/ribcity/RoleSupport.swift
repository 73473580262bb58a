import ArgumentParser
import Dispatch
import Foundation
import Topology

/// Reads a topology for a role's command; a bad file is a usage error naming file, key and line.
func readTopology(_ path: String) throws -> Topology {
    do { return try TopologyReader.read(path: path) } catch { throw ValidationError(error.description) }
}

/// Runs `handler` on SIGINT or SIGTERM instead of dying, so a role can stop cleanly; cancel the
/// returned sources when done.
func onInterrupt(_ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
    [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number)
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }
}
