import Foundation
import Synchronization

/// Starts the tests' child processes one at a time, and makes their pipes between starts.
///
/// On Linux, Foundation's `Process.run()` lists the descriptors open at that moment and closes
/// them in the child; a descriptor another thread opens after the listing and before the spawn
/// stays open in the child. `run()` learns that a child ended when the child's end of a socket
/// pair it makes closes, and a pipe's reader sees its end when every writer has closed it. So a
/// socket pair or pipe made while another child is being started leaks into that child, and the
/// first child's exit goes unnoticed (its termination handler does not run, a read of its output
/// does not end) until the other child exits too: a process a test killed is never started again.
/// Every test that starts a process starts it, and makes its pipes, here.
public enum ChildProcess {
    private static let starting = Mutex(())

    /// A pipe for a child's input or output, made while no child is being started.
    public static func pipe() -> Pipe {
        starting.withLock { _ in Pipe() }
    }

    /// `process.run()`, while no other child is being started.
    public static func run(_ process: Process) throws {
        try starting.withLock { _ in try process.run() }
    }
}
