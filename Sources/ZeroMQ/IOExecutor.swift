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

    /// Queues a job that the stopped I/O thread will not run.
    func runAfterShutdown(_ job: UnownedJob) {
        afterShutdown.async { self.run(job) }
    }
}
