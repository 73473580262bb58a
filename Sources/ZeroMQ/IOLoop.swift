import CRibcity
import CZeroMQ
import DequeModule
import Glibc

/// The body of the transport's I/O thread: owns every libzmq socket of the process and moves
/// messages between them and the buffers that async code reads and writes.
///
/// Confined to its thread; nothing here is shared except through `LoopCore` and `SocketCore`.
final class IOLoop {
    /// How many messages move per socket and direction before the loop looks at the others.
    static let batchLimit = 256
    /// Messages one socket hands libzmq per turn of the loop, before the others get theirs.
    static let flushLimit = batchLimit * 4
    /// How many times the loop runs the jobs queued by the jobs it ran before it polls again.
    static let jobRounds = 8
    /// How long a ROUTER waits before retrying a peer that was full (ROUTER has no POLLOUT signal for one peer).
    static let routerRetry: Duration = .milliseconds(1)

    private final class Entry {
        let core: SocketCore
        /// A libzmq socket until its first bind or connect to a `unix://` endpoint makes it a
        /// packet link (``Command/perform(_:packets:_:_:)``).
        var raw: any LoopSocket
        /// The socket's `ZMQ_FD` (a packet link's epoll), which the loop polls.
        var signal: Int32
        /// The monitor's socket and descriptor, and the libzmq socket it watches (which stays the
        /// libzmq side when a ROUTER also serves a packet link).
        var monitor: (socket: RawSocket, signal: Int32, watched: RawSocket)?
        /// What the socket could do when libzmq last said (`ZMQ_EVENTS`), and whether it must be
        /// asked again: its descriptor was readable, or a call on it may have taken in a change
        /// that the descriptor will not show.
        var readable = false
        var writable = false
        var unsure = true
        /// Whether the monitor (if any) must be read: set when it is attached and when its descriptor signals.
        var monitorUnsure = false
        /// The batch being handed to libzmq, and how many of its messages already went.
        var current: OutboundBuffer.Batch?
        var currentIndex = 0
        var retryAt: ContinuousClock.Instant?
        /// Since when the current message has waited for a full ROUTER peer.
        var blockedSince: ContinuousClock.Instant?
        /// ROUTER peers that stayed full past the timeout: their messages fail at once while they
        /// are still full, instead of each waiting the timeout again.
        var fullPeers: Set<[UInt8]> = []
        var closing: (deadline: ContinuousClock.Instant?, waiters: [CheckedContinuation<Void, Never>])?

        init(core: SocketCore, raw: any LoopSocket) throws(ZMQError) {
            self.core = core
            self.raw = raw
            signal = try raw.signalDescriptor()
        }

        var hasOutbound: Bool { current != nil || !core.outbound.isEmpty }

        /// Whether the loop takes in what the socket receives now.
        var wantsInput: Bool {
            closing == nil && core.type.canReceive && (!isHeld || readsBeforeHold) && core.inbound.hasRoom
        }

        /// Whether the loop reads what the socket has waiting although it is held (set by the
        /// first turn that sees a hold asked for with `readingFirst`, cleared once that turn has
        /// served the socket), and how many holds asked for so far a turn has seen.
        var readsBeforeHold = false
        var holdAsksSeen = 0

        /// Whether its input waits for another socket's (``Socket/holdInput(until:atMost:)``).
        var isHeld: Bool { core.heldUntil.load(ordering: .acquiring) >= 0 }
        /// When the loop reads it again whatever the other socket does (set by the first turn
        /// that sees the hold, cleared whenever the hold ends).
        var heldUntilAtLatest: ContinuousClock.Instant?

        /// Lets its input be read again.
        func release() {
            core.heldUntil.store(-1, ordering: .relaxed)
            heldUntilAtLatest = nil
        }

        /// Lets its input be read again if it waits for socket `gate`. Returns whether it did.
        func release(ifHeldBy gate: Int) -> Bool {
            // A plain load first: every batch received asks every socket, and most are not held.
            guard core.heldUntil.load(ordering: .relaxed) == gate,
                core.heldUntil.compareExchange(expected: gate, desired: -1, ordering: .relaxed).exchanged
            else { return false }
            heldUntilAtLatest = nil
            return true
        }

        /// Until when, at the latest, its input stays held from this turn on; `nil` when the loop
        /// reads it. A hold past its limit, on a closing socket, or on one whose send waits for its
        /// descriptor ends here (such a poll would return at once while the descriptor stays
        /// readable).
        func holdsInput(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            guard isHeld else { return nil }
            let latest = heldUntilAtLatest ?? now.advanced(by: .milliseconds(core.heldAtMostMs.load(ordering: .relaxed)))
            if latest <= now || closing != nil || (hasOutbound && !writable && !sendsWithoutPollout) {
                release()
                unsure = true
                return nil
            }
            let asks = core.heldAsks.load(ordering: .acquiring)
            if asks != holdAsksSeen {
                holdAsksSeen = asks
                if core.heldReadsFirst.load(ordering: .relaxed) {
                    readsBeforeHold = true
                    unsure = true
                }
            }
            heldUntilAtLatest = latest
            return latest
        }

        /// Whether the loop has something to do on the socket without waiting for its descriptor.
        func isDue(at now: ContinuousClock.Instant) -> Bool {
            if unsure || monitorUnsure || (readable && wantsInput) { return true }
            // A closing socket with nothing left to send is closed at the end of the turn.
            guard hasOutbound else { return closing != nil }
            if sendsWithoutPollout { return retryAt.map { $0 <= now } ?? true }
            return writable
        }

        /// A ROUTER has no POLLOUT for one peer (with ROUTER_MANDATORY and no peers it never
        /// signals it at all): the loop tries it directly and backs off when a peer is full.
        var sendsWithoutPollout: Bool { core.type == .router }
    }

    private let core: LoopCore
    private let executor: IOExecutor
    private let name: String
    private let clock = ContinuousClock()
    private var entries: [Entry] = []
    private var shutdownWaiters: [CheckedContinuation<Void, Never>]?
    /// Where a turn's reads gather before they go to the socket's consumer.
    private var received = ReceivedBatch()

    init(core: LoopCore, executor: IOExecutor, name: String) {
        self.core = core
        self.executor = executor
        self.name = name
    }

    func run() {
        let threadName = String(name.prefix(15))  // Linux allows 15 characters
        _ = ribcity_set_thread_name(threadName)
        // The loop polls the sockets' descriptors itself rather than through `zmq_poll`, which
        // asks every socket for `ZMQ_EVENTS` before and after each poll — two system calls per
        // socket per turn, most of a turn's cost with a handful of sockets (PERFORMANCE.md). Here
        // only a socket whose descriptor was readable, or that the loop has just used, is asked.
        var descriptors: [pollfd] = []
        var polled: [(entry: Entry, monitor: Bool)] = []
        while !(shutdownWaiters != nil && entries.isEmpty) {
            core.waker.prepareToSleep()
            descriptors.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: core.waker.fd, events: Int16(POLLIN), revents: 0))
            let now = clock.now
            var wakeAt: ContinuousClock.Instant?
            var due = core.hasCommands
            for entry in entries {
                if let retryAt = entry.raw.retryAt {
                    if retryAt <= now {
                        entry.raw.retry()
                        entry.unsure = true
                    } else {
                        wakeAt = min(wakeAt ?? retryAt, retryAt)
                    }
                }
                // Before asking what is due: a hold that ends here leaves the socket to be asked.
                let heldUntil = entry.holdsInput(at: now)
                if entry.isDue(at: now) { due = true }
                if entry.hasOutbound, let retryAt = entry.retryAt, retryAt > now { wakeAt = min(wakeAt ?? retryAt, retryAt) }
                if let deadline = entry.closing?.deadline { wakeAt = min(wakeAt ?? deadline, deadline) }
                if let heldUntil {
                    wakeAt = min(wakeAt ?? heldUntil, heldUntil)
                } else {
                    descriptors.append(pollfd(fd: entry.signal, events: Int16(POLLIN), revents: 0))
                    polled.append((entry, false))
                }
                if let monitor = entry.monitor {
                    descriptors.append(pollfd(fd: monitor.signal, events: Int16(POLLIN), revents: 0))
                    polled.append((entry, true))
                }
            }
            if let timer = core.timers.withLock({ $0.earliest() }) { wakeAt = min(wakeAt ?? timer, timer) }
            var timeout: Int32 = -1
            if due {
                timeout = 0
            } else if let wakeAt {
                timeout = Int32(clamping: max(0, (wakeAt - now).millisecondsRoundedUp))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            core.waker.awake(signalled: ready > 0 && descriptors[0].revents != 0)
            if ready > 0 {
                for (index, target) in polled.enumerated() where descriptors[index + 1].revents != 0 {
                    if target.monitor { target.entry.monitorUnsure = true } else { target.entry.unsure = true }
                }
            }
            for entry in entries { serve(entry) }
            for command in core.takeCommands() { execute(command) }
            let woke = clock.now
            for waiter in core.timers.withLock({ $0.takeDue(now: woke) }) { waiter.resume(returning: true) }
            runJobs()
            finishClosing()
        }
        for command in core.takeCommands(stop: true) { refuse(command) }
        for waiter in core.timers.withLock({ $0.stop() }) { waiter.resume(returning: false) }
        core.retireJobs(to: executor.runAfterShutdown)
        zmq_ctx_term(core.context.pointer)
        shutdownWaiters?.forEach { $0.resume() }
    }

    // MARK: Tasks that run here

    /// Runs the jobs waiting, and those they queue in turn (an actor's answer to a message
    /// received is sent in this iteration), for a bounded number of rounds so that sockets are
    /// not starved.
    private func runJobs() {
        for _ in 0..<Self.jobRounds {
            let jobs = core.takeJobs()
            if jobs.isEmpty { return }
            for job in jobs { executor.run(job) }
        }
    }

    // MARK: Commands

    private func execute(_ command: Command) {
        switch command {
        case let .open(socketCore, continuation):
            guard shutdownWaiters == nil else { return refuse(command) }
            do {
                let raw = try RawSocket(context: core.context.pointer, type: socketCore.type)
                do {
                    try raw.apply(socketCore.options)
                    let entry = try Entry(core: socketCore, raw: raw)
                    if socketCore.options.monitor {
                        let monitor = try startMonitor(raw, id: socketCore.id)
                        entry.monitor = (monitor, try monitor.signalDescriptor(), raw)
                        entry.monitorUnsure = true
                    }
                    entries.append(entry)
                } catch {
                    raw.close()
                    throw error
                }
                continuation.resume()
            } catch {
                continuation.resume(throwing: error)
            }
        case let .perform(id, packets, operation, continuation):
            guard let entry = entries.first(where: { $0.core.id == id }), entry.closing == nil else {
                return continuation.resume(throwing: ZMQError.closed("socket \(id)"))
            }
            continuation.resume(
                with: Result {
                    if packets { try usePackets(entry) }
                    return try operation(entry.raw)
                })
            // Binding, connecting or subscribing may take in a change that the descriptor will not show.
            entry.unsure = true
        case let .close(id, continuation):
            guard let entry = entries.first(where: { $0.core.id == id }) else { return continuation.resume() }
            beginClosing(entry, waiter: continuation)
        case let .shutdown(continuation):
            shutdownWaiters = (shutdownWaiters ?? []) + (continuation.map { [$0] } ?? [])
            for entry in entries where entry.closing == nil { beginClosing(entry, waiter: nil) }
        }
    }

    /// Makes the entry's socket a Unix packet link, unless it is one already; a ROUTER bound over
    /// libzmq already serves a packet link beside (``SplitRouter``).
    private func usePackets(_ entry: Entry) throws(ZMQError) {
        if entry.raw is PacketSocket || entry.raw is SplitRouter { return }
        if entry.core.type == .router, let zmq = entry.raw as? RawSocket, zmq.isBound {
            let split = try SplitRouter(zmq: zmq, packets: PacketSocket(type: .router))
            entry.signal = try split.signalDescriptor()
            entry.raw = split
            return
        }
        guard entry.monitor == nil else { throw ZMQError.unsupported("a monitor on a packet link") }
        let packets = try PacketSocket(type: entry.core.type, routingID: entry.core.options.routingID)
        entry.signal = try packets.signalDescriptor()
        entry.raw.close()
        entry.raw = packets
    }

    private func refuse(_ command: Command) {
        switch command {
        case let .open(_, continuation): continuation.resume(throwing: ZMQError.closed("open socket"))
        case let .perform(id, _, _, continuation): continuation.resume(throwing: ZMQError.closed("socket \(id)"))
        case let .close(_, continuation): continuation.resume()
        case let .shutdown(continuation): continuation?.resume()
        }
    }

    // MARK: Moving messages

    /// Does what the socket is ready for: takes in what it received while there is room, hands
    /// libzmq what is queued to send, reads its monitor; then learns what it can do next, unless
    /// what it did already says so.
    private func serve(_ entry: Entry) {
        if entry.monitorUnsure {
            entry.monitorUnsure = false
            readMonitor(entry)
        }
        if entry.unsure {
            entry.unsure = false
            (entry.readable, entry.writable) = entry.raw.readiness()
        }
        var received = false
        var drained = false
        if entry.readable, entry.wantsInput {
            received = true
            drained = receive(entry)
        }
        entry.readsBeforeHold = false
        var flushed = false
        var blocked = false
        if entry.hasOutbound {
            if entry.sendsWithoutPollout {
                if entry.retryAt.map({ $0 <= clock.now }) ?? true {
                    flushed = true
                    blocked = flush(entry)
                }
            } else if entry.writable {
                flushed = true
                blocked = flush(entry)
            }
        }
        guard received || flushed else { return }
        let type = entry.core.type
        if !type.canSend || !type.canReceive || (entry.sendsWithoutPollout && !flushed) {
            // One way only (a ROUTER's sends never wait for POLLOUT): what the calls returned
            // says all — a receive that found nothing took in every change for receiving, and a
            // send that would block leaves libzmq to signal when it can go on.
            if received { entry.readable = !drained }
            if flushed { entry.writable = !blocked }
        } else {
            // Sending may take in a change for receiving, and receiving one for sending.
            (entry.readable, entry.writable) = entry.raw.readiness()
        }
    }

    /// Takes in what the socket received, up to a batch or the inbound buffer's room. Returns
    /// whether it stopped because nothing more was waiting.
    private func receive(_ entry: Entry) -> Bool {
        // One retain of the socket for the batch, not one per message.
        let raw = entry.raw
        let room = entry.core.inbound.byteRoom
        received.countsWholeBytes = room != .max
        var drained = false
        do {
            while received.count < Self.batchLimit, received.byteCount < room {
                guard try raw.tryReceive(into: &received) else {
                    drained = true
                    break
                }
            }
        } catch {
            entry.core.eventSink.yield(SocketEvent(kind: .receiveFailed, endpoint: "", detail: "\(error)"))
        }
        // Taken before the held sockets are read: they read into the same batch.
        let batch = received.take()
        if !batch.isEmpty {
            entry.core.counters.received.add(batch.count, ordering: .relaxed)
            release(heldBy: entry)
            entry.core.inbound.deliver(batch)
        }
        return drained
    }

    /// Reads the sockets whose input was held until `gate` received, before `gate`'s batch is
    /// handed out: what they hold is handed out first.
    private func release(heldBy gate: Entry) {
        let id = gate.core.id
        for entry in entries where entry !== gate && entry.release(ifHeldBy: id) {
            entry.unsure = false
            (entry.readable, entry.writable) = entry.raw.readiness()
            if entry.readable, entry.wantsInput { entry.readable = !receive(entry) }
        }
    }

    /// Hands libzmq what is queued to send, up to ``flushLimit`` messages. Returns whether it
    /// stopped because libzmq would block (a full peer or high-water mark).
    private func flush(_ entry: Entry) -> Bool {
        // Work on locals: the entry's fields are class storage, checked for exclusivity on every access.
        var current = entry.current
        var index = entry.currentIndex
        var sent = 0
        var failed = 0
        let raw = entry.raw
        var retry = false
        var blockedSince = entry.blockedSince
        var anyFullPeer = !entry.fullPeers.isEmpty
        defer { entry.blockedSince = blockedSince }
        flushing: while sent + failed < Self.flushLimit {
            if current == nil {
                current = entry.core.outbound.takeBatch()
                index = 0
            }
            guard let batch = current else { break }
            // A run of the batch's messages in one pass, read in place (a copy of each would
            // retain and release its parts); one at a time while some peer is full, since each
            // one sent frees its peer.
            let run = raw.trySend(batch.messages, from: index, limit: anyFullPeer ? 1 : Self.flushLimit - sent - failed)
            if run.sent > 0 {
                if anyFullPeer {
                    entry.fullPeers.remove(batch.messages[index].first)
                    anyFullPeer = !entry.fullPeers.isEmpty
                }
                sent += run.sent
                index += run.sent
                blockedSince = nil
            }
            let failure: ZMQError
            switch run.stop {
            case nil:
                if index == batch.messages.count {
                    batch.confirmation?.succeed()
                    current = nil
                }
                continue flushing
            case .full:
                let first = batch.messages[index].first
                let since = blockedSince ?? clock.now
                guard let limit = entry.core.options.fullPeerTimeout,
                    entry.fullPeers.contains(first) || clock.now - since >= limit
                else {
                    blockedSince = since
                    retry = true
                    break flushing
                }
                // The peer has not read for too long: this message fails, the others go on.
                entry.fullPeers.insert(first)
                anyFullPeer = true
                failure = ZMQError(code: EAGAIN, operation: "send on \(entry.core.type) to a peer full for \(limit)")
            case .failed(let error):
                failure = error
            }
            blockedSince = nil
            failed += 1
            // Counted before anyone can learn of it (the confirmation, the event), unlike the
            // messages sent, which are counted after the pass (see `Socket.statistics()`).
            entry.core.counters.sendFailures.add(1, ordering: .relaxed)
            if let confirmation = batch.confirmation {
                confirmation.fail(failure)
                current = nil
                continue
            }
            entry.core.eventSink.yield(SocketEvent(kind: .sendFailed, endpoint: "", detail: "\(failure)"))
            index += 1
            if index == batch.messages.count {
                current = nil
            }
        }
        entry.current = current
        entry.currentIndex = index
        entry.retryAt = retry && entry.core.type == .router ? clock.now.advanced(by: Self.routerRetry) : nil
        if sent > 0 { entry.core.counters.sent.add(sent, ordering: .relaxed) }
        return retry
    }

    // MARK: Monitoring

    private func startMonitor(_ raw: RawSocket, id: Int) throws(ZMQError) -> RawSocket {
        let endpoint = "inproc://ribcity-monitor-\(id)"
        try raw.startMonitor(endpoint: endpoint)
        let monitor = try RawSocket(context: core.context.pointer, type: .pair)
        var options = SocketOptions()
        options.linger = .zero
        try monitor.apply(options)
        try monitor.connect(endpoint)
        return monitor
    }

    private func readMonitor(_ entry: Entry) {
        guard let monitor = entry.monitor?.socket else { return }
        while let message = try? monitor.tryReceive() {
            if let event = SocketEvent(monitorMessage: message) { entry.core.eventSink.yield(event) }
        }
    }

    // MARK: Closing

    private func beginClosing(_ entry: Entry, waiter: CheckedContinuation<Void, Never>?) {
        if entry.closing == nil {
            let linger = entry.core.options.linger
            let deadline = linger < .zero ? nil : clock.now.advanced(by: linger)
            entry.closing = (deadline, [])
            entry.core.outbound.seal()
        }
        if let waiter { entry.closing?.waiters.append(waiter) }
    }

    /// Closes the sockets whose queued sends have drained or whose LINGER ran out.
    private func finishClosing() {
        let now = clock.now
        var closed: [Int] = []
        defer {
            // Input held until a socket that is gone is read again.
            for entry in entries where closed.contains(entry.core.heldUntil.load(ordering: .relaxed)) {
                entry.release()
                entry.unsure = true
            }
        }
        entries.removeAll { entry in
            guard let closing = entry.closing else { return false }
            if entry.hasOutbound, closing.deadline.map({ now < $0 }) ?? true { return false }
            let error = ZMQError.closed("send")
            var unsent = entry.core.outbound.close(error: error)
            if var current = entry.current {
                current.messages.removeFirst(entry.currentIndex)
                unsent.insert(current, at: 0)
                entry.current = nil
            }
            for batch in unsent { batch.confirmation?.fail(error) }
            let lost = unsent.reduce(0) { $0 + $1.messages.count }
            if lost > 0 { entry.core.counters.sendFailures.add(lost, ordering: .relaxed) }
            if let monitor = entry.monitor {
                zmq_socket_monitor(monitor.watched.handle, nil, 0)
                monitor.socket.close()
            }
            closed.append(entry.core.id)
            entry.raw.close()
            entry.core.inbound.finish()
            entry.core.eventSink.finish()
            closing.waiters.forEach { $0.resume() }
            return true
        }
    }
}

private extension Duration {
    /// Whole milliseconds, rounded up so that a timer never fires early.
    var millisecondsRoundedUp: Int {
        let (seconds, attoseconds) = components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        return Int(seconds * 1000 + (attoseconds + perMillisecond - 1) / perMillisecond)
    }
}
