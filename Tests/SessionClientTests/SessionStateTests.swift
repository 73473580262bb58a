import Testing
import Wire

@testable import SessionClient

/// The session client's policies without sockets or clocks: its line's state and its book of
/// replies, event by event.
@Suite("Session client state: the line and the replies, without sockets")
struct SessionStateTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64(seconds * 1000)) }

    @Test("A retry goes on the same socket while the line is alive, and reopens it after a silent timeout")
    func retries() {
        var line = SessionLine()
        let first = line.opened()
        #expect(line.retry(attempt: 1, now: at(0), timeout: .seconds(1)) == nil, "a first attempt just goes")
        #expect(line.retry(attempt: 2, now: at(1), timeout: .seconds(1)) == .reopen, "nothing heard yet")
        let heard = line.delivered(generation: first, at: at(1.5))
        #expect(heard)
        #expect(line.retry(attempt: 2, now: at(2), timeout: .seconds(1)) == .sameLine)
        #expect(line.retry(attempt: 3, now: at(2.5), timeout: .seconds(1)) == .reopen)
        line.reopening()
        let second = line.opened()
        let stale = line.delivered(generation: first, at: at(3))
        #expect(!stale, "the dropped socket's last messages do not count")
        #expect(line.lastHeard == at(1.5))
        let fresh = line.delivered(generation: second, at: at(3))
        #expect(fresh)
        #expect(line.reconnects == 1 && line.generation == 2)
    }

    @Test("One Hello again at a time, none once closed; the first close is the one that says goodbye")
    func greetingAndClosing() {
        var line = SessionLine()
        let greets = [line.beginGreeting(), line.beginGreeting()]
        #expect(greets == [true, false], "one on its way already")
        line.endGreeting()
        let again = line.beginGreeting()
        #expect(again && line.rehellos == 2)
        line.endGreeting()
        let closes = [line.close(), line.close()]
        #expect(closes == [true, false])
        let afterClose = line.beginGreeting()
        #expect(!afterClose)
    }

    @Test("A request answered 'unknown session' says Hello only if no Welcome came since it was sent")
    func oneHelloForManyRequests() {
        var line = SessionLine()
        let sentBefore = line.welcomes
        #expect(line.needsHello(sentAfter: sentBefore))
        line.welcomed()
        #expect(!line.needsHello(sentAfter: sentBefore), "another request's Hello was welcomed meanwhile")
        #expect(line.needsHello(sentAfter: line.welcomes))
    }

    static func reply(to messageID: String) -> Envelope {
        var stamper = SequenceStamper(sender: "dispatch")
        return Envelope(.ack(Ack()), from: stamper.next(), inReplyTo: messageID)
    }

    @Test("A reply before its requester waits is kept for it; after it gave up, it is dropped; a push comes out as incoming")
    func replies() {
        var book = ReplyBook()
        book.expect("s:1")
        guard case .kept = book.deliver(Self.reply(to: "s:1")) else {
            Issue.record("an early reply was not kept")
            return
        }
        guard case .arrived(let early) = book.claim("s:1") else {
            Issue.record("the kept reply was not handed over")
            return
        }
        #expect(early.inReplyTo == "s:1" && book.count == 0)

        book.expect("s:2")
        let released = book.abandon("s:2")
        #expect(released == nil, "nobody was waiting yet")
        guard case .abandoned = book.claim("s:2") else {
            Issue.record("a requester arriving after the timeout would wait forever")
            return
        }
        guard case .late = book.deliver(Self.reply(to: "s:2")) else {
            Issue.record("a late reply was not dropped")
            return
        }
        guard case .incoming(let push) = book.deliver(Self.reply(to: "")) else {
            Issue.record("a push was not passed on")
            return
        }
        #expect(push.inReplyTo.isEmpty)
    }

    @Test(
        "An attempt unanswered by its deadline is given up on, waiting or not; an earlier attempt's deadline ends nothing; a reply in time is kept"
    )
    func deadlines() async throws {
        let start = ContinuousClock.now
        var book = ReplyBook()
        book.expect("s:1")
        book.time("s:1", until: start + .seconds(1))
        book.expect("s:2")
        book.time("s:2", until: start + .seconds(2))
        book.expect("s:3")
        book.time("s:3", until: start + .seconds(3))
        #expect(book.earliestDeadline == start + .seconds(1))
        #expect(book.expire(now: start + .milliseconds(999)).isEmpty && book.count == 3)
        #expect(book.expire(now: start + .seconds(1)).isEmpty, "nobody was waiting for s:1")
        guard case .abandoned = book.claim("s:1") else {
            Issue.record("a requester arriving after its deadline would wait forever")
            return
        }
        // s:2 is sent again (a new attempt, same message id) before its first deadline.
        book.expect("s:2")
        book.time("s:2", until: start + .seconds(5))
        guard case .kept = book.deliver(Self.reply(to: "s:3")) else {
            Issue.record("a reply in time was not kept")
            return
        }
        #expect(book.expire(now: start + .seconds(4)).isEmpty)
        guard case .pending = book.claim("s:2") else {
            Issue.record("the first attempt's deadline ended the second")
            return
        }
        guard case .arrived = book.claim("s:3") else {
            Issue.record("a reply that came in time was lost to its deadline")
            return
        }
        #expect(book.earliestDeadline == start + .seconds(5))

        let timed = Book()
        await timed.expect("s:9", until: start)
        let waiting = Task { try await timed.waitFor("s:9") }
        try await Task.sleep(for: .milliseconds(50))
        await timed.expire(now: start)
        #expect(try await waiting.value == nil, "a waiting requester is resumed with nothing when its time runs out")
    }

    @Test("A waiting requester is resumed by its reply, released when given up on or when the session closes")
    func waiters() async throws {
        let book = Book()
        await book.expect("s:1")
        let answered = Task { try await book.waitFor("s:1") }
        try await Task.sleep(for: .milliseconds(50))
        await book.deliver(Self.reply(to: "s:1"))
        #expect(try await answered.value?.inReplyTo == "s:1")

        await book.expect("s:2")
        let closed = Task { try await book.waitFor("s:2") }
        try await Task.sleep(for: .milliseconds(50))
        await book.closeAll()
        await #expect(throws: CancellationError.self) { try await closed.value }
    }

    /// The book on an actor, as the session client holds it.
    actor Book {
        var book = ReplyBook()
        func expect(_ id: String) { book.expect(id) }
        func expect(_ id: String, until deadline: ContinuousClock.Instant) {
            book.expect(id)
            book.time(id, until: deadline)
        }
        func expire(now: ContinuousClock.Instant) { for waiter in book.expire(now: now) { waiter.resume(returning: nil) } }
        func waitFor(_ id: String) async throws -> Envelope? {
            switch book.claim(id) {
            case .arrived(let envelope): return envelope
            case .abandoned: return nil
            case .pending: break
            }
            return try await withCheckedThrowingContinuation { continuation in book.wait(for: id, continuation) }
        }
        func deliver(_ envelope: Envelope) {
            if case .resume(let waiter, let reply) = book.deliver(envelope) { waiter.resume(returning: reply) }
        }
        func closeAll() { for waiter in book.closeAll() { waiter.resume(throwing: CancellationError()) } }
    }
}
