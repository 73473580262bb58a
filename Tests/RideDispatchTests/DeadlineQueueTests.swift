import Testing

@testable import RideDispatch

@Suite("Deadline queues: the next deadline the books still hold")
struct DeadlineQueueTests {
    @Test("Stale deadlines are dropped when they reach the front; the earliest current one is answered")
    func earliestSkipsStale() {
        var queue = DeadlineQueue<Int>()
        var current: [Int: Double] = [1: 30, 2: 10, 3: 20]
        for (id, time) in current { queue.add(time, for: id) }
        #expect(queue.earliest { current[$1] == $0 } == 10)
        current[2] = nil  // the offer to 2 was answered: its expiry no longer holds
        #expect(queue.earliest { current[$1] == $0 } == 20)
        #expect(queue.count == 2, "the stale entry went when it reached the front")
        current[3] = 25  // withdrawn and offered again, expiring later
        queue.add(25, for: 3)
        #expect(queue.earliest { current[$1] == $0 } == 25)
    }

    @Test("Due ids come out once each, in id order, only while current, and later ones stay")
    func takeDueInIdOrder() {
        var queue = DeadlineQueue<Int>()
        let current: [Int: Double] = [7: 5, 3: 5, 9: 4, 1: 50]
        for (id, time) in current { queue.add(time, for: id) }
        queue.add(5, for: 7)  // told twice of the same deadline
        queue.add(2, for: 4)  // no longer held
        #expect(queue.takeDue(by: 5) { current[$1] == $0 } == [3, 7, 9])
        #expect(queue.takeDue(by: 5) { current[$1] == $0 } == [])
        #expect(queue.earliest { current[$1] == $0 } == 50)
    }
}
