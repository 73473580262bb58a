import Dispatch

/// The program's entry: the command runs as a task on Swift's global executor while the main
/// thread waits for it.
///
/// Not Swift's `async` main, which on Linux ends the main thread's own work in libdispatch's
/// `dispatch_main` (the thread exits and parks in `sigsuspend`): valgrind 3.19 fails on the first
/// thread made after that (an internal SIGSEGV), so no ribcity process could be counted by
/// callgrind (`Tools/count-city`). No ribcity code runs on the main actor, so nothing waits for
/// a main queue that is no longer drained.
@main
enum ProgramEntry {
    static func main() {
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await RibCity.runCommandLine()
            finished.signal()
        }
        finished.wait()
    }
}
