import SimulatedTime
import VirtualTime

extension WindowOpen {
    /// The keeper's opening, as the wire carries it: with `participant`, only what that
    /// participant must have received (what it reads; the others' would cost it a decode).
    public init(_ opening: WindowOpening, for participant: String? = nil) {
        self.init()
        window = opening.window.index
        startMs = opening.window.start.wireMilliseconds
        endMs = opening.window.end.wireMilliseconds
        drain = opening.purpose == .drain
        let names = participant.map { opening.expected[$0] == nil ? [] : [$0] } ?? opening.expected.keys.sorted()
        expected = names.map { name in
            WindowExpectation.with {
                $0.processID = name
                $0.received = opening.expected[name] ?? [:]
            }
        }
        lives = opening.incarnations
    }

    /// The opening this message carries, or `nil` if it is not one (a window that ends before it starts).
    public var opening: WindowOpening? {
        guard endMs > startMs else { return nil }
        return WindowOpening(
            window: Window(index: window, start: SimTime(wireMilliseconds: startMs), end: SimTime(wireMilliseconds: endMs)),
            purpose: drain ? .drain : .advance,
            expected: Dictionary(expected.map { ($0.processID, $0.received) }, uniquingKeysWith: { $1 }),
            incarnations: lives)
    }
}

extension WindowOpening {
    /// The opening a frame from the bus carries (`control.window-open`), or `nil` for anything else.
    public init?(published frames: [[UInt8]]) {
        guard let envelope = try? Frames.Published(frames: frames).envelope, case .windowOpen(let open)? = envelope.body,
            let opening = open.opening
        else { return nil }
        self = opening
    }
}

extension WindowDone {
    /// A participant's report, as the wire carries it; `published` if the same report also goes
    /// out on the bus after the participant's events of the window.
    public init(_ report: WindowReport, published: Bool = false) {
        self.init()
        self.published = published
        window = report.window
        processID = report.participant.name
        life = report.participant.incarnation
        sent = report.sent
        received = report.received
        idle = report.next == nil
        nextMs = report.next?.wireMilliseconds ?? 0
        busySeconds = report.busy / .seconds(1)
        late = report.late
        leaving = report.leaving
        deliveriesMs = report.deliveries.mapValues(\.wireMilliseconds)
        if let own = report.own { ownNextMs = own.wireMilliseconds }
    }

    /// The report this message carries.
    public var report: WindowReport {
        let own: SimTime? = hasOwnNextMs ? SimTime(wireMilliseconds: ownNextMs) : nil
        return WindowReport(
            window: window, participant: ParticipantID(processID, incarnation: life), sent: sent, received: received,
            next: idle ? nil : SimTime(wireMilliseconds: nextMs), busy: .microseconds(Int64((busySeconds * 1_000_000).rounded())),
            late: late, leaving: leaving, deliveries: deliveriesMs.mapValues { SimTime(wireMilliseconds: $0) },
            own: own)
    }
}

extension WindowHello {
    /// The hello of `participant`'s life on the window link.
    public init(_ participant: ParticipantID) {
        self.init()
        processID = participant.name
        life = participant.incarnation
    }

    /// The participant's life that says hello.
    public var participant: ParticipantID { ParticipantID(processID, incarnation: life) }
}
