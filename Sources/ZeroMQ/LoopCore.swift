import Synchronization

/// Work handed to the I/O thread.
enum Command: Sendable {
    /// Create the libzmq socket for `core` and apply its options.
    case open(SocketCore, CheckedContinuation<Void, any Error>)
    /// Run an operation on a socket (bind, connect, subscribe, …); with `packets`, first make it a
    /// Unix packet link if it is not one (its first bind or connect is to a `unix://` endpoint).
    case perform(Int, packets: Bool, @Sendable (any LoopSocket) throws -> String?, CheckedContinuation<String?, any Error>)
    /// Stop reading, drain queued sends within LINGER, then close.
    case close(Int, CheckedContinuation<Void, Never>)
    /// Close every socket as above, terminate the context, and end the thread.
    case shutdown(CheckedContinuation<Void, Never>?)
}

/// The state the transport's callers share with its I/O thread.
final class LoopCore: Sendable {
    private struct Queue {
        var commands: [Command] = []
        var jobs: [UnownedJob] = []
        var acceptingCommands = true
        var acceptingJobs = true
    }

    let context: ContextHandle
    let waker: Waker
    private let queue = Locked<Queue>(Queue())
    private let socketIDs = Atomic<Int>(0)
    /// Whether this transport's ZAP handler is running (CURVE servers need it).
    let authenticating = Locked(false)
    /// CURVE for every bind and connect (``Transport/secure(_:admitting:onRefusal:)``).
    let security = Locked<TransportSecurity?>(nil)
    /// Tasks sleeping on the I/O thread's clock (``IOExecutor/sleep(until:)``).
    let timers = Locked(IOTimers())

    init() throws(ZMQError) {
        context = try ContextHandle()
        waker = try Waker()
    }

    func nextSocketID() -> Int {
        socketIDs.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Queues a command for the I/O thread. Returns `false` once the transport has shut down.
    func submit(_ command: Command) -> Bool {
        append { queue in
            guard queue.acceptingCommands else { return false }
            queue.commands.append(command)
            return true
        }
    }

    /// The sleep `id` waits until `deadline`; the I/O thread is woken to poll no longer than that.
    func wait(_ id: UInt64, until deadline: ContinuousClock.Instant, _ waiter: IOTimers.Waiter) -> IOTimers.Placement {
        let placement = timers.withLock { $0.wait(id, until: deadline, waiter) }
        if placement == .waiting { waker.wake() }
        return placement
    }

    /// Queues a job to run on the I/O thread. Returns `false` once the thread has stopped.
    func enqueueJob(_ job: UnownedJob) -> Bool {
        append { queue in
            guard queue.acceptingJobs else { return false }
            queue.jobs.append(job)
            return true
        }
    }

    /// Adds to the queue under its lock what `add` accepts, and wakes the I/O thread if it did.
    private func append(_ add: (inout Queue) -> Bool) -> Bool {
        let accepted = queue.withLock(add)
        if accepted { waker.wake() }
        return accepted
    }

    /// The I/O thread stops (its last act): the jobs still waiting, and every later one, go to
    /// `elsewhere`, in order. Under the lock, so that no job runs on the thread and elsewhere at once.
    func retireJobs(to elsewhere: (UnownedJob) -> Void) {
        queue.withLock { queue in
            queue.acceptingJobs = false
            queue.jobs.forEach(elsewhere)
            queue.jobs.removeAll()
        }
    }

    /// Takes every waiting job (I/O thread).
    func takeJobs() -> [UnownedJob] {
        queue.withLock { queue in
            defer { queue.jobs.removeAll(keepingCapacity: true) }
            return queue.jobs
        }
    }

    /// Whether commands or jobs wait (I/O thread, before sleeping).
    var hasCommands: Bool { queue.withLock { !$0.commands.isEmpty || !$0.jobs.isEmpty } }

    /// Takes every waiting command (I/O thread). With `stop`, refuses later ones.
    func takeCommands(stop: Bool = false) -> [Command] {
        queue.withLock { queue in
            if stop { queue.acceptingCommands = false }
            defer { queue.commands.removeAll(keepingCapacity: true) }
            return queue.commands
        }
    }
}
