import CZeroMQ
import Glibc
import Synchronization

/// Wakes the I/O thread out of its `poll` through an eventfd.
///
/// The I/O thread announces that it is about to sleep; a producer that changed what the
/// thread must do writes to the eventfd only if the thread announced sleep, so a busy
/// thread costs producers no system call.
final class Waker: Sendable {
    let fd: Int32
    private let sleeping = Atomic<Bool>(false)

    init() throws(ZMQError) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw ZMQError(code: errno, operation: "eventfd") }
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    /// Called by anyone who gave the I/O thread work.
    func wake() {
        if sleeping.exchange(false, ordering: .sequentiallyConsistent) {
            var one: UInt64 = 1
            _ = Glibc.write(fd, &one, MemoryLayout<UInt64>.size)
        }
    }

    /// Called by the I/O thread before it looks at its work and sleeps.
    func prepareToSleep() {
        sleeping.store(true, ordering: .sequentiallyConsistent)
    }

    /// Called by the I/O thread after its `poll` returned.
    func awake(signalled: Bool) {
        sleeping.store(false, ordering: .sequentiallyConsistent)
        if signalled {
            var count: UInt64 = 0
            _ = Glibc.read(fd, &count, MemoryLayout<UInt64>.size)
        }
    }
}
