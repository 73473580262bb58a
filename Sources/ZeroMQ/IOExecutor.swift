import Dispatch

/// The transport's I/O thread as an executor, for latency-sensitive code.
///
/// As a task executor, tasks that prefer it (`Task(executorPreference: transport.executor) { … }`
/// or `withTaskExecutorPreference`) run between the I/O thread's polls, so a message received
/// resumes its consumer and the consumer's reply is flushed in the same loop iteration, with no
/// thread woken in between. As a serial executor, it runs actors: a process whose actors all run
/// here (`nonisolated var unownedExecutor { socket.executor.asUnownedSerialExecutor() }`) moves a
/// message from its socket to the actor that handles it, and the actor's answer back to the
/// socket, on one thread. Only short, non-blocking work belongs here: while a job runs, the
/// thread moves no messages.
///
/// After shutdown, jobs run one at a time on a serial queue of their own, in the order they came.
public final class IOExecutor: TaskExecutor, SerialExecutor {
    let core: LoopCore
    /// Where jobs go once the I/O thread has stopped: serial, as an actor's executor must be.
    private let afterShutdown = DispatchQueue(label: "ribcity.io-executor.after-shutdown")

    init(core: LoopCore) {
        self.core = core
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !core.enqueueJob(job) { runAfterShutdown(job) }
    }

    /// Runs a job on this thread's terms: isolated to it as a serial executor (for actors), with
    /// it as the task executor (for tasks that prefer it).
    func run(_ job: UnownedJob) {
        job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
    }

    /// Suspends the calling task until `deadline`, timed by the I/O thread's poll: no timer
    /// thread is involved and none is woken, so a task on this thread that sleeps often (a
    /// host's loop, a request's timeout) costs no thread switch. Throws `CancellationError` when
    /// the task is cancelled. After the transport has shut down it sleeps as `Task.sleep` does.
    public func sleep(until deadline: ContinuousClock.Instant, isolation: isolated (any Actor)? = #isolation) async throws {
        try Task.checkCancellation()
        let id = core.timers.withLock { $0.reserve() }
        let timed = try await withCallerIsolatedContinuation { (waiter: IOTimers.Waiter) in
            switch core.wait(id, until: deadline, waiter) {
            case .waiting: break
            case .cancelled: waiter.resume(throwing: CancellationError())
            case .stopped: waiter.resume(returning: false)
            }
        } onCancel: {
            core.timers.withLock { $0.cancel(id) }?.resume(throwing: CancellationError())
        }
        if !timed { try await Task.sleep(until: deadline, clock: .continuous) }
    }

    /// Suspends the calling task for `duration` (``sleep(until:)``).
    public func sleep(for duration: Duration, isolation: isolated (any Actor)? = #isolation) async throws {
        try await sleep(until: .now + duration)
    }

    /// Queues a job that the stopped I/O thread will not run.
    func runAfterShutdown(_ job: UnownedJob) {
        afterShutdown.async { self.run(job) }
    }
}
