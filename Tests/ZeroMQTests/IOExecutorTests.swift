import Foundation
import TestSupport
import Testing

@testable import ZeroMQ

/// The kernel's name for the calling thread.
func currentThreadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite("The I/O thread as a task executor")
struct IOExecutorTests {
    @Test("Tasks that prefer the executor run on the I/O thread and can send and receive there")
    func runsOnIOThread() async throws {
        try await within(20) {
            let transport = try Transport(name: "exec-test-io")
            let pull = try await transport.socket(.pull)
            try await pull.bind("inproc://executor")
            let push = try await transport.socket(.push)
            try await push.connect("inproc://executor")
            let (name, echoed) = try await withTaskExecutorPreference(transport.executor) {
                let name = currentThreadName()
                try await push.send(Message(strings: ["on the loop"]))
                let message = try await pull.receive()
                return (name, message.strings)
            }
            #expect(name == "exec-test-io")
            #expect(echoed == ["on the loop"])
            #expect(currentThreadName() != "exec-test-io")
            await transport.shutdown()
        }
    }

    @Test("Jobs enqueued after shutdown still run, on the global executor")
    func afterShutdown() async throws {
        try await within(20) {
            let transport = try Transport(name: "exec-test-down")
            await transport.shutdown()
            let value = await Task(executorPreference: transport.executor) { 40 + 2 }.value
            #expect(value == 42)
        }
    }
}
