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
                $0.received = NamedCount.entries(opening.expected[name] ?? [:])
            }
        }
        lives = NamedCount.entries(opening.incarnations.mapValues(UInt64.init))
    }

    /// The opening this message carries, or `nil` if it is not one (a window that ends before it starts).
    public var opening: WindowOpening? {
        guard endMs > startMs else { return nil }
        return WindowOpening(
            window: Window(index: window, start: SimTime(wireMilliseconds: startMs), end: SimTime(wireMilliseconds: endMs)),
            purpose: drain ? .drain : .advance,
            expected: Dictionary(expected.map { ($0.processID, NamedCount.counts($0.received)) }, uniquingKeysWith: { $1 }),
            incarnations: NamedCount.counts(lives).mapValues { UInt32(truncatingIfNeeded: $0) })
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
    /// A participant's report, as the wire carries it.
    public init(_ report: WindowReport) {
        self.init()
        window = report.window
        processID = report.participant.name
        life = report.participant.incarnation
        sent = NamedCount.entries(report.sent)
        received = NamedCount.entries(report.received)
        idle = report.next == nil
        nextMs = report.next?.wireMilliseconds ?? 0
        busySeconds = report.busy / .seconds(1)
        late = report.late
        leaving = report.leaving
        deliveriesMs = NamedTime.entries(report.deliveries)
        if let own = report.own { ownNextMs = own.wireMilliseconds }
    }

    /// The report this message carries.
    public var report: WindowReport {
        let own: SimTime? = hasOwnNextMs ? SimTime(wireMilliseconds: ownNextMs) : nil
        return WindowReport(
            window: window, participant: ParticipantID(processID, incarnation: life), sent: NamedCount.counts(sent),
            received: NamedCount.counts(received),
            next: idle ? nil : SimTime(wireMilliseconds: nextMs), busy: .microseconds(Int64((busySeconds * 1_000_000).rounded())),
            late: late, leaving: leaving, deliveries: NamedTime.times(deliveriesMs),
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

extension NamedCount {
    /// A count by name as entries, in the order of the names (a map's entries in deterministic order).
    public static func entries(_ counts: [String: UInt64]) -> [NamedCount] {
        counts.sorted { $0.key < $1.key }.map { key, value in
            var entry = NamedCount()
            entry.key = key
            entry.value = value
            return entry
        }
    }

    /// The count by name the entries give (the last one for a name given twice, as a map's decoding does).
    public static func counts(_ entries: [NamedCount]) -> [String: UInt64] {
        var counts: [String: UInt64] = [:]
        for entry in entries { counts[entry.key] = entry.value }
        return counts
    }
}

extension NamedTime {
    /// Simulated times by name as entries (milliseconds), in the order of the names.
    public static func entries(_ times: [String: SimTime]) -> [NamedTime] {
        times.sorted { $0.key < $1.key }.map { key, time in
            var entry = NamedTime()
            entry.key = key
            entry.value = time.wireMilliseconds
            return entry
        }
    }

    /// The simulated times by name the entries give (the last one for a name given twice).
    public static func times(_ entries: [NamedTime]) -> [String: SimTime] {
        var times: [String: SimTime] = [:]
        for entry in entries { times[entry.key] = SimTime(wireMilliseconds: entry.value) }
        return times
    }
}
