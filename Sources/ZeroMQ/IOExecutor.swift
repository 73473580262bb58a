/// The transport's I/O thread as a task executor, for latency-sensitive code.
///
/// Tasks that prefer it (`Task(executorPreference: transport.executor) { … }` or
/// `withTaskExecutorPreference`) run between the I/O thread's polls, so a message received
/// resumes its consumer and the consumer's reply is flushed in the same loop iteration, with no
/// thread woken in between. Only short, non-blocking work belongs here: while a job runs, the
/// thread moves no messages. After shutdown, jobs go to the global executor.
public final class IOExecutor: TaskExecutor {
    let core: LoopCore

    init(core: LoopCore) {
        self.core = core
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !core.enqueueJob(job) {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }
}
