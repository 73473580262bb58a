import Foundation
import TestSupport
import Testing

@testable import ZeroMQ

/// A fresh ipc endpoint in the temporary directory.
func ipcEndpoint(_ name: String = "t") -> String {
    "ipc://\(NSTemporaryDirectory())ribcity-test-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
}

/// The three transports the tests run over, each with an endpoint to bind and how to connect to it.
enum Endpoints: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inproc, ipc, tcp

    var bindEndpoint: String {
        switch self {
        case .inproc: "inproc://test-\(UInt32.random(in: 0...UInt32.max))"
        case .ipc: ipcEndpoint()
        case .tcp: "tcp://127.0.0.1:*"
        }
    }

    var testDescription: String { rawValue }
}

/// Waits (polling, bounded) until `condition` holds.
func eventually(_ seconds: Double = 10, _ condition: @Sendable () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return await condition()
}

/// The value `body` produces within `seconds`, or `nil` if it takes longer (the body is cancelled).
func attempt<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
    do {
        return try await within(seconds, "attempt", body)
    } catch is TimedOut {
        return nil
    }
}
