import Synchronization
import TestSupport
import Testing
import Wire

@testable import ZeroMQ

/// Counts progress across tasks in tests.
final class Progress: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ count: Int = 1) { value.add(count, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// Waits until `progress` has stopped moving (the sender is suspended), and returns where it stopped.
func stalledCount(_ progress: Progress) async -> Int {
    var last = -1
    var steady = 0
    while steady < 20 {
        try? await Task.sleep(for: .milliseconds(10))
        let now = progress.count
        steady = now == last ? steady + 1 : 0
        last = now
    }
    return last
}

@Suite("Back-pressure")
struct BackPressureTests {
    static func smallBuffers() -> SocketOptions {
        var options = SocketOptions()
        options.sendHighWaterMark = 50
        options.receiveHighWaterMark = 50
        options.outboundCapacity = 64
        options.inboundCapacity = 64
        return options
    }

    @Test("A slow consumer suspends the sender and nothing is dropped", arguments: [SocketType.push, .dealer])
    func slowConsumerSuspendsSender(senderType: SocketType) async throws {
        try await within(60) {
            let transport = try Transport()
            let receiver = try await transport.socket(senderType == .push ? .pull : .dealer, options: Self.smallBuffers())
            let endpoint = try await receiver.bind("inproc://backpressure")
            let sender = try await transport.socket(senderType, options: Self.smallBuffers())
            try await sender.connect(endpoint)

            let total = 20_000
            let progress = Progress()
            let producer = Task {
                for index in 0..<total {
                    try await sender.send(Message(Array("\(index)".utf8)))
                    progress.add()
                }
            }
            // Nobody reads: the sender must stop, bounded by the buffers in between.
            let stalledAt = await stalledCount(progress)
            #expect(stalledAt < 1_000, "sender ran ahead to \(stalledAt) messages with nobody reading")
            #expect(stalledAt > 0)

            var next = 0
            for try await batch in receiver.batches(limit: 7) {
                for message in batch {
                    #expect(message.strings == ["\(next)"])
                    next += 1
                }
                if next == total { break }
            }
            try await producer.value
            #expect(next == total)
            #expect(sender.statistics().sendFailures == 0)
            await transport.shutdown()
        }
    }

    @Test("A ROUTER peer that stops reading fails its own messages after the full-peer timeout, and holds up nobody else")
    func stuckRouterPeer() async throws {
        try await within(60) {
            let transport = try Transport()
            var options = Self.smallBuffers()
            options.routerMandatory = true
            options.fullPeerTimeout = .milliseconds(100)
            let router = try await transport.socket(.router, options: options)
            let endpoint = try await router.bind("inproc://stuck-peer")
            var stuckOptions = Self.smallBuffers()
            stuckOptions.routingID = Array("stuck".utf8)
            stuckOptions.inboundCapacity = 1
            let stuck = try await transport.socket(.dealer, options: stuckOptions)
            var readerOptions = Self.smallBuffers()
            readerOptions.routingID = Array("reader".utf8)
            let reader = try await transport.socket(.dealer, options: readerOptions)
            for dealer in [stuck, reader] {
                try await dealer.connect(endpoint)
                try await dealer.send(Message(Array("hi".utf8)))
            }
            for _ in 0..<2 { _ = try await router.receive() }

            // Fill the peer that never reads, until a send to it fails.
            var failure: ZMQError?
            for index in 0..<1_000 where failure == nil {
                do {
                    try await router.sendConfirmed(Message([Array("stuck".utf8), Array("\(index)".utf8)]))
                } catch let error as ZMQError {
                    failure = error
                }
            }
            #expect(failure?.isWouldBlock == true, "\(String(describing: failure))")
            // The other peer still gets its messages at once.
            try await router.sendConfirmed(Message([Array("reader".utf8), Array("after".utf8)]))
            #expect(try await reader.receive().strings == ["after"])
            await transport.shutdown()
        }
    }

    @Test("PUB drops under a slow subscriber show up as sequence gaps")
    func publisherDropsAreVisible() async throws {
        try await within(60) {
            let transport = try Transport()
            let sub = try await transport.socket(
                .sub,
                options: {
                    var options = Self.smallBuffers()
                    options.subscriptions = [Array("warm".utf8), Array(Topic.dispatch.utf8), Array(Topic.control.utf8)]
                    return options
                }())
            let endpoint = try await sub.bind("inproc://drops")
            let pub = try await transport.socket(.pub, options: Self.smallBuffers())
            try await pub.connect(endpoint)
            // Slow joiner: publish until the subscription has reached the publisher.
            while try await attempt(0.05, { try await sub.receive() }) == nil {
                try await pub.send(Message(strings: ["warm", ""]))
            }
            var stamper = SequenceStamper(sender: "dispatch")
            let total = 5_000
            for _ in 0..<total {
                var event = DispatchEvent()
                event.kind = .requestCreated
                let published = Frames.Published(
                    topic: Topic.dispatchRequest,
                    envelope: Envelope(.dispatchEvent(event), from: stamper.next()))
                try await pub.send(Message(published.frames))
            }
            // End markers continue the same sequence, so that drops just before them show as a
            // gap; they repeat because PUB may drop them too.
            let continued = stamper
            let marker = Task {
                var stamper = continued
                while !Task.isCancelled {
                    let end = Frames.Published(
                        topic: "control.stop",
                        envelope: Envelope(.stop(Stop()), from: stamper.next()))
                    try await pub.send(Message(end.frames))
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            defer { marker.cancel() }

            var tracker = SequenceTracker()
            var received = 0
            var firstSequence: UInt64?
            var endSequence: UInt64 = 0
            reading: for try await batch in sub.batches() {
                for message in batch where message.strings.first != "warm" {
                    let published = try Frames.Published(frames: message.frames)
                    let sequence = published.envelope.sequence
                    firstSequence = firstSequence ?? sequence
                    _ = tracker.observe(sender: published.envelope.sender, sequence: sequence)
                    if published.topic == "control.stop" {
                        endSequence = sequence
                        break reading
                    }
                    received += 1
                }
            }
            let missed = Int(tracker.totalMissed) + Int((firstSequence ?? 1) - 1)
            #expect(endSequence > UInt64(total))
            #expect(missed > 0, "expected drops with nobody reading")
            #expect(received + missed == Int(endSequence) - 1, "every message is either received or counted missing")
            await transport.shutdown()
        }
    }

    @Test("A sender suspended on a full queue can be cancelled")
    func suspendedSendIsCancellable() async throws {
        try await within(20) {
            let transport = try Transport()
            var options = Self.smallBuffers()
            options.outboundCapacity = 4
            options.immediate = true
            let push = try await transport.socket(.push, options: options)
            try await push.connect(ipcEndpoint("nobody"))  // nobody listens: nothing can leave
            let sender = Task {
                for index in 0..<1_000 { try await push.send(Message(Array("\(index)".utf8))) }
            }
            try await Task.sleep(for: .milliseconds(50))
            sender.cancel()
            await #expect(throws: CancellationError.self) { try await sender.value }
            #expect(push.statistics().queuedOutbound <= 4)
            await transport.shutdown()
        }
    }
}
