import Foundation
import Wire
import ZeroMQ

/// Says on the bus that this process is up and serving: a `Ready` on `control.ready`, every
/// 10 ms for the first second and every 100 ms to the fifth (a publisher's first messages are
/// dropped until the bus has told it who subscribes, and the coordinator waits for this one before
/// it starts the next stage or the first window), then every second for the process's life, so
/// that a coordinator or a monitor joining late learns it too. The coordinator starts the next
/// process once it has seen the `Ready` of this one's pid.
public struct ReadinessAnnouncer: Sendable {
    private let task: Task<Void, Never>

    /// Starts announcing `processID` (in `role`) on a PUB socket of its own, connected to the bus
    /// whose publisher side is `bus`.
    public init(role: Role, processID: String, endpoints: [String] = [], bus: String, on transport: Transport) async throws {
        let publisher = try await transport.socket(.pub, options: .eventBus)
        try await publisher.connect(bus)
        self.init(role: role, processID: processID, endpoints: endpoints, publisher: publisher)
    }

    /// Starts announcing `processID` (in `role`) on `publisher`, a PUB the process already has.
    public init(role: Role, processID: String, endpoints: [String] = [], publisher: Socket) {
        let pid = getpid()
        let ready = Ready.with {
            $0.role = role
            $0.processID = processID
            $0.pid = pid
            $0.endpoints = endpoints
            $0.life = ProcessLife.current()
        }
        task = Task {
            // Each start is a sender of its own: a restart's announcements are not taken for replays.
            var stamper = SequenceStamper(sender: "ready.\(processID).\(pid)")
            let started = ContinuousClock.now
            while !Task.isCancelled {
                let envelope = Envelope(.ready(ready), from: stamper.next())
                try? await publisher.send(Message(Frames.Published(topic: Topic.ready, envelope: envelope).frames))
                let age = ContinuousClock.now - started
                try? await Task.sleep(
                    for: age < .seconds(1) ? .milliseconds(10) : age < .seconds(5) ? .milliseconds(100) : .seconds(1))
            }
        }
    }

    /// Stops announcing.
    public func stop() { task.cancel() }
}
