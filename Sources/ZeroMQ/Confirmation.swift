/// A one-shot verdict from the I/O thread on a confirmed send: accepted by libzmq, or its error.
final class Confirmation: Sendable {
    private let state = Locked<(result: Result<Void, any Error>?, waiter: CheckedContinuation<Void, any Error>?)>((nil, nil))

    func succeed() { settle(.success(())) }

    func fail(_ error: any Error) { settle(.failure(error)) }

    /// Suspends until the verdict is in.
    func wait(isolation: isolated (any Actor)? = #isolation) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result = state.withLock { state -> Result<Void, any Error>? in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let result { continuation.resume(with: result) }
        }
    }

    private func settle(_ result: Result<Void, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }
}
