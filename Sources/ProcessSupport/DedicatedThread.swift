import Foundation

/// Runs blocking or long work (raw libzmq loops, drawing a city's demand) on a thread of its own,
/// never on the two threads that run Swift's tasks.
public func onDedicatedThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.name = name
        thread.start()
    }
}
