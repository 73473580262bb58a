import Foundation
import TestSupport
import Testing

@testable import ZeroMQ

/// The kernel's name for the calling thread.
func currentThreadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A counter on a transport's I/O thread that notices two of its jobs running at once.
actor CounterOnLoop {
    nonisolated let socket: Socket
    nonisolated var unownedExecutor: UnownedSerialExecutor { socket.executor.asUnownedSerialExecutor() }
    private var running = false
    private(set) var overlaps = 0
    private(set) var count = 0
    private(set) var threads: Set<String> = []

    init(socket: Socket) { self.socket = socket }

    func bump() {
        if running { overlaps += 1 }
        running = true
        threads.insert(currentThreadName())
        count += 1
        running = false
    }
}

@Suite("The I/O thread as a task executor and as an actor's executor")
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

    @Test("An actor on the executor runs on the I/O thread; after shutdown its jobs still run, one at a time")
    func actorOnLoop() async throws {
        try await within(20) {
            let transport = try Transport(name: "exec-actor-io")
            let counter = CounterOnLoop(socket: try await transport.socket(.pull))
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<200 { group.addTask { await counter.bump() } }
            }
            #expect(await counter.threads == ["exec-actor-io"])
            await transport.shutdown()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<200 { group.addTask { await counter.bump() } }
            }
            #expect(await counter.count == 400)
            #expect(await counter.overlaps == 0)
        }
    }

    @Test("Jobs enqueued after shutdown still run, on a serial queue of the executor's own")
    func afterShutdown() async throws {
        try await within(20) {
            let transport = try Transport(name: "exec-test-down")
            await transport.shutdown()
            let value = await Task(executorPreference: transport.executor) { 40 + 2 }.value
            #expect(value == 42)
        }
    }
}
