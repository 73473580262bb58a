import Foundation

/// A process's ZeroMQ transport: one libzmq context and one I/O thread that owns every socket.
///
/// The I/O thread blocks in `poll` over its sockets' descriptors (woken through an eventfd when
/// there is work), so no Swift task ever blocks on libzmq. Call ``shutdown()`` when done: it
/// drains queued sends within each socket's LINGER, closes the sockets and terminates the context.
public final class Transport: Sendable {
    let core: LoopCore

    /// The I/O thread as a task executor: tasks that prefer it run between polls, so that what
    /// they receive and send crosses no other thread. See ``IOExecutor``.
    public let executor: IOExecutor

    /// Starts the I/O thread.
    /// - Parameter name: the thread's name, as `top -H` and debuggers show it.
    public init(name: String = "zmq-io") throws {
        let core = try LoopCore()
        let executor = IOExecutor(core: core)
        self.core = core
        self.executor = executor
        let thread = Thread {
            IOLoop(core: core, executor: executor, name: name).run()
        }
        thread.name = name
        thread.start()
    }

    /// Runs `body` with a new transport and shuts the transport down after it, whether `body`
    /// returns or throws.
    ///
    /// A process that exits on an error while its I/O thread still runs leaves libzmq's own
    /// threads unjoined (ThreadSanitizer reports them as leaked, and the exit status becomes
    /// its); this makes every way out of `body` wait for the context's termination.
    public static func using<T>(
        name: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Transport) async throws -> T
    ) async throws -> T {
        let transport = try Transport(name: name)
        do {
            let result = try await body(transport)
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    deinit {
        _ = core.submit(.shutdown(nil))
    }

    /// Creates a socket on the I/O thread.
    public func socket(_ type: SocketType, options: SocketOptions = SocketOptions()) async throws -> Socket {
        if case .server? = options.curve, !core.authenticating.withLock({ $0 }) {
            // libzmq would admit every key: a wiring mistake, not a choice.
            throw ZMQError.unsupported("a CURVE \(type) server before this transport's Authenticator was started")
        }
        let socketCore = SocketCore(id: core.nextSocketID(), type: type, options: options, waker: core.waker)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            if !core.submit(.open(socketCore, continuation)) {
                continuation.resume(throwing: ZMQError.closed("open \(type) socket"))
            }
        }
        return Socket(core: socketCore, loop: core, executor: executor)
    }

    /// Closes every socket (queued sends drain within LINGER), terminates the context and
    /// ends the I/O thread. Idempotent; later calls on sockets throw ``ZMQError/isClosed``.
    public func shutdown() async {
        await withCheckedContinuation { continuation in
            if !core.submit(.shutdown(continuation)) { continuation.resume() }
        }
    }
}
