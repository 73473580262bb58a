import SimulatedTime
import VirtualTime

extension WindowOpen {
    /// The keeper's opening, as the wire carries it: with `participant`, only what that
    /// participant must have received (what it reads; the others' would cost it a decode).
    public init(_ opening: WindowOpening, for participant: String? = nil) {
        self.init(opening, for: participant, lives: ParallelLists(opening.incarnations))
    }

    /// The opening for each of `participants`, in their order, each with only its own
    /// expectations; the lives, the same in each, are put in order once, and left out (as
    /// before) for those whose `withLives` is false.
    public static func each(
        _ opening: WindowOpening, for participants: [String], withLives: (String) -> Bool = { _ in true }
    ) -> [WindowOpen] {
        let lives = ParallelLists(opening.incarnations)
        return participants.map { WindowOpen(opening, for: $0, lives: withLives($0) ? lives : nil) }
    }

    private init(_ opening: WindowOpening, for participant: String?, lives: ParallelLists<UInt32>?) {
        self.init()
        window = opening.window.index
        startMs = opening.window.start.wireMilliseconds
        endMs = opening.window.end.wireMilliseconds
        drain = opening.purpose == .drain
        let receivers = participant.map { opening.expected[$0] == nil ? [] : [$0] } ?? opening.expected.keys.sorted()
        for receiver in receivers {
            let received = ParallelLists(opening.expected[receiver] ?? [:])
            expectedReceivers.append(contentsOf: repeatElement(receiver, count: received.names.count))
            expectedSenders.append(contentsOf: received.names)
            expectedCounts.append(contentsOf: received.values)
        }
        if let lives { (lifeNames, lifeNumbers) = lives.lists } else { livesAsBefore = true }
    }

    /// The opening this message carries, or `nil` if it is not one (a window that ends before it
    /// starts, or lists of different lengths). A receiver expecting nothing has no entry. Lives
    /// as before come out empty (``WindowOpenReader`` fills them in).
    public var opening: WindowOpening? {
        guard endMs > startMs, expectedReceivers.count == expectedSenders.count,
            expectedSenders.count == expectedCounts.count,
            let incarnations = ParallelLists(names: lifeNames, values: lifeNumbers)?.dictionary,
            !livesAsBefore || incarnations.isEmpty
        else { return nil }
        var expected: [String: [String: UInt64]] = [:]
        for index in expectedReceivers.indices {
            expected[expectedReceivers[index], default: [:]][expectedSenders[index]] = expectedCounts[index]
        }
        return WindowOpening(
            window: Window(index: window, start: SimTime(wireMilliseconds: startMs), end: SimTime(wireMilliseconds: endMs)),
            purpose: drain ? .drain : .advance, expected: expected, incarnations: incarnations)
    }
}

/// A participant's reader of the keeper's openings: it keeps the lives of the last opening that
/// had them, for the openings that have them as before.
public struct WindowOpenReader: Sendable {
    private var lives: [String: UInt32]?

    public init() {}

    /// The opening the frames from the window link carry (`control.window-open`), or `nil` for
    /// anything else, or for one whose lives are as before when none came yet.
    public mutating func opening(from frames: [[UInt8]]) -> WindowOpening? {
        guard let envelope = try? Frames.Published(frames: frames).envelope, case .windowOpen(let open)? = envelope.body,
            var opening = open.opening
        else { return nil }
        if open.livesAsBefore {
            guard let lives else { return nil }
            opening.incarnations = lives
        } else {
            lives = opening.incarnations
        }
        return opening
    }
}

extension WindowDone {
    /// A participant's report, as the wire carries it.
    public init(_ report: WindowReport) {
        self.init()
        window = report.window
        processID = report.participant.name
        life = report.participant.incarnation
        (sentTo, sentCounts) = ParallelLists(report.sent).lists
        (receivedFrom, receivedCounts) = ParallelLists(report.received).lists
        idle = report.next == nil
        nextMs = report.next?.wireMilliseconds ?? 0
        busySeconds = report.busy / .seconds(1)
        late = report.late
        leaving = report.leaving
        (deliveriesTo, deliveryMs) = ParallelLists(report.deliveries.mapValues(\.wireMilliseconds)).lists
        if let own = report.own { ownNextMs = own.wireMilliseconds }
    }

    /// The report this message carries, or `nil` if its lists do not pair up.
    public var report: WindowReport? {
        guard let sent = ParallelLists(names: sentTo, values: sentCounts)?.dictionary,
            let received = ParallelLists(names: receivedFrom, values: receivedCounts)?.dictionary,
            let deliveries = ParallelLists(names: deliveriesTo, values: deliveryMs)?.dictionary
        else { return nil }
        let own: SimTime? = hasOwnNextMs ? SimTime(wireMilliseconds: ownNextMs) : nil
        return WindowReport(
            window: window, participant: ParticipantID(processID, incarnation: life), sent: sent, received: received,
            next: idle ? nil : SimTime(wireMilliseconds: nextMs), busy: .microseconds(Int64((busySeconds * 1_000_000).rounded())),
            late: late, leaving: leaving, deliveries: deliveries.mapValues { SimTime(wireMilliseconds: $0) }, own: own)
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
