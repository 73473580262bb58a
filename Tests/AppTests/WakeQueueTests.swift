import Testing
import Wire

@testable import AppHost

@Suite("A host's wake-ups")
struct WakeQueueTests {
    @Test("Earliest first, ties by app id; a later wake-up never replaces a sooner one; removed ones never come back")
    func order() {
        var queue = WakeQueue()
        queue.wake("rider-9", at: 30)
        queue.wake("rider-2", at: 30)
        queue.wake("driver-1", at: 45)
        queue.wake("rider-5", at: 10)
        queue.wake("rider-5", at: 50)
        queue.wake("driver-1", at: 20)
        queue.wake("rider-7", at: 25)
        queue.remove("rider-7")
        #expect(queue.earliest() == 10)
        #expect(queue.all == ["rider-9": 30, "rider-2": 30, "driver-1": 20, "rider-5": 10])
        var popped: [String] = []
        while let next = queue.popDue(by: 30) { popped.append(next.id) }
        #expect(popped == ["rider-5", "driver-1", "rider-2", "rider-9"])
        #expect(queue.isEmpty && queue.earliest() == nil && queue.popDue(by: 1_000) == nil)
    }

    @Test("Only what is due comes out, and many changes leave the same answers as a dictionary would")
    func manyChanges() {
        var queue = WakeQueue()
        var expected: [String: Double] = [:]
        var seed: UInt64 = 7
        func next(_ bound: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % bound
        }
        for step in 0..<5_000 {
            let id = "app-\(next(40))"
            if next(5) == 0 {
                queue.remove(id)
                expected[id] = nil
            } else {
                let time = Double(next(1_000))
                queue.wake(id, at: time)
                expected[id] = min(time, expected[id] ?? time)
            }
            if step % 50 == 0 {
                let by = Double(next(1_000))
                let due = expected.filter { $0.value <= by }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
                var popped: [(String, Double)] = []
                while let item = queue.popDue(by: by) { popped.append((item.id, item.time)) }
                #expect(popped.map(\.0) == due.map(\.key) && popped.map(\.1) == due.map(\.value), "step \(step)")
                for (id, _) in due { expected[id] = nil }
            }
            #expect(queue.earliest() == expected.values.min())
        }
        #expect(queue.all == expected)
    }
}

@Suite("A host's requests awaiting replies in virtual time")
struct PendingRequestsTests {
    func request(_ app: String, due deadline: Double) -> VirtualHost.Pending {
        VirtualHost.Pending(
            app: app, body: .heartbeat(.init()),
            stamp: {
                var stamper = SequenceStamper(sender: "riders-0"); return stamper.next()
            }(),
            attempt: 1, deadline: deadline)
    }

    @Test("Timeouts come out earliest first, ties by message id; an answered request never times out; asked again, it waits anew")
    func timeouts() {
        var pending = PendingRequests()
        pending.add(request("a", due: 12), id: "m-3")
        pending.add(request("b", due: 10), id: "m-2")
        pending.add(request("c", due: 12), id: "m-1")
        pending.add(request("d", due: 11), id: "m-4")
        #expect(pending.remove("m-4")?.app == "d")
        #expect(pending.earliestDeadline() == 10)
        #expect(pending.popDue(by: 9) == nil)
        #expect(pending.popDue(by: 12) == "m-2")
        var again = request("b", due: 20)
        again.attempt = 2
        pending.add(again, id: "m-2")
        #expect([pending.popDue(by: 12), pending.popDue(by: 12), pending.popDue(by: 12)] == ["m-1", "m-3", nil])
        #expect(pending["m-2"]?.attempt == 2 && pending.earliestDeadline() == 20)
        _ = pending.remove("m-1")
        _ = pending.remove("m-3")
        _ = pending.remove("m-2")
        #expect(pending.isEmpty && pending.earliestDeadline() == nil)
    }
}
