/// The state of a session's line to dispatch, without sockets or clocks of its own: which socket
/// (generation) is current, when it last carried anything, whether a Hello is on its way, whether
/// the session is closed. The session client asks it what to do and carries that out.
struct SessionLine {
    /// What to do before sending a request again.
    enum Retry: Equatable {
        /// The line carried something else meanwhile: it is alive, the request or its reply was
        /// lost, so it goes again on the same socket.
        case sameLine
        /// The line was silent: drop the socket (and whatever it still holds), open another,
        /// say Hello on it, then send again (Lazy Pirate).
        case reopen
    }

    /// The current socket's generation (0: none opened yet); messages from older ones are stale.
    private(set) var generation = 0
    /// When the current socket last received anything.
    private(set) var lastHeard: ContinuousClock.Instant?
    private(set) var closed = false
    /// A Hello on the current line is on its way (after dispatch said it did not know the session).
    private(set) var greeting = false
    /// How many times the socket was dropped and opened again.
    private(set) var reconnects = 0
    /// How many times dispatch forgot the session and was greeted again on the same line.
    private(set) var rehellos = 0
    /// Welcomes received so far: a request sent before the latest one and answered "unknown
    /// session" needs no Hello of its own, only to go again.
    private(set) var welcomes = 0

    /// A new socket is open: its generation.
    mutating func opened() -> Int {
        generation += 1
        return generation
    }

    /// Messages arrived on the socket of `generation` at `time`: whether they count (a dropped
    /// socket's last messages do not).
    mutating func delivered(generation: Int, at time: ContinuousClock.Instant) -> Bool {
        guard generation == self.generation else { return false }
        lastHeard = time
        return true
    }

    /// Attempt `attempt` (from 1) of a request is about to go: the first goes as it is; a later
    /// one reopens the line only if it was silent for a whole `timeout`.
    func retry(attempt: Int, now: ContinuousClock.Instant, timeout: Duration) -> Retry? {
        guard attempt > 1 else { return nil }
        guard let lastHeard, now - lastHeard < timeout else { return .reopen }
        return .sameLine
    }

    /// The line is being reopened.
    mutating func reopening() { reconnects += 1 }

    /// Dispatch said it does not know the session, outside any request: whether to say Hello
    /// again now (not when one is on its way already, nor once closed).
    mutating func beginGreeting() -> Bool {
        guard !greeting, !closed else { return false }
        greeting = true
        rehellos += 1
        return true
    }

    mutating func endGreeting() { greeting = false }

    /// Dispatch welcomed the session (again).
    mutating func welcomed() { welcomes += 1 }

    /// A request sent when `welcomes` Welcomes had come was answered "unknown session": whether
    /// it must say Hello before going again (not if a Welcome came since it was sent: hundreds of
    /// requests in flight when dispatch restarts must not each say Hello, and be sent each of
    /// the session's riders' last trip updates).
    func needsHello(sentAfter welcomes: Int) -> Bool { welcomes == self.welcomes }

    /// Closes the session: whether this was the first close (the one that says goodbye).
    mutating func close() -> Bool {
        guard !closed else { return false }
        closed = true
        return true
    }
}
