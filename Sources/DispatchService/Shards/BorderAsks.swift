import RideDispatch

/// The asking side of matching across a border (docs/ARCHITECTURE.md, "Sharded dispatch"): a
/// shard whose waiting request is best served by a neighbour's idle driver asks the neighbour to
/// reserve it (the neighbour's ``ReservationDesk`` answers). While it asks, the request is frozen
/// here — matched to nobody — so that it is never offered at home and handed over at once. A
/// grant hands the request over (it leaves this shard); a refusal, or no answer in time, lets it
/// be matched at home again, and an unanswered ask is released so that a grant still on its way
/// frees its driver at the owner. A request the rider cancels while it is asked for is released
/// the same way.
///
/// Safe under loss and restarts because the asks and answers travel over a ``ShardLink`` (each
/// taken exactly once, in order) and this state is part of the shard's snapshot: a request is
/// handed over only on a grant this shard has not released, and a release always reaches the
/// owner after the grant it concerns. No sockets, no clocks.
public struct BorderAsks: Sendable, Equatable, Codable {
    /// One ask in flight: the reservation it would be, for which request and driver, where, since when.
    public struct Ask: Sendable, Equatable, Codable {
        public let reservation: String
        public let request: RequestID
        /// The driver asked for; nil when the owner is to pick its nearest idle one.
        public let driver: DriverID?
        public let owner: Int
        public let since: Double
    }

    /// What the shard is to do.
    public enum Action: Sendable, Equatable {
        /// Send the owner this ask (`reserve`).
        case reserve(Ask)
        /// Hand `request` over to `owner` under `reservation`: it is the owner's from now on.
        case handOver(request: RequestID, owner: Int, reservation: String)
        /// Tell the owner the reservation is not needed.
        case release(reservation: String, owner: Int)
        /// The request may be matched at home again.
        case matchAtHome(RequestID)
    }

    /// How long an ask waits for its answer.
    public let patience: Double
    /// This shard's number, for reservation ids unique across shards.
    public let shard: Int
    public private(set) var asks: [String: Ask] = [:]
    private var asked: UInt64 = 0

    public init(shard: Int, patience: Double) {
        precondition(patience > 0)
        self.shard = shard
        self.patience = patience
    }

    /// Whether `request` is frozen by an ask in flight (not to be matched at home).
    public func isFrozen(_ request: RequestID) -> Bool { ask(of: request) != nil }

    /// Asks `owner` for `driver` (nil: the owner's pick) for `request`, which waits here and is not
    /// asked for already.
    public mutating func ask(for request: RequestID, driver: DriverID?, owner: Int, now: Double) -> [Action] {
        precondition(owner != shard, "a shard reserves its own drivers by matching")
        guard !isFrozen(request) else { return [] }
        asked += 1
        let ask = Ask(reservation: "s\(shard)-\(asked)", request: request, driver: driver, owner: owner, since: now)
        asks[ask.reservation] = ask
        return [.reserve(ask)]
    }

    /// The owner's answer. One to an ask no longer in flight (released after its time ran out)
    /// changes nothing: its release is on its way behind it.
    public mutating func answered(_ answer: ReservationDesk.Answer) -> [Action] {
        switch answer {
        case .granted(let id, _, _): answered(id, granted: true)
        case .refused(let id, _): answered(id, granted: false)
        }
    }

    /// The owner granted (or refused) reservation `id`.
    public mutating func answered(_ id: String, granted: Bool) -> [Action] {
        guard let ask = asks.removeValue(forKey: id) else { return [] }
        return granted ? [.handOver(request: ask.request, owner: ask.owner, reservation: id)] : [.matchAtHome(ask.request)]
    }

    /// The ask in flight for `request`, if any.
    public func ask(of request: RequestID) -> Ask? { asks.values.first { $0.request == request } }

    /// The rider cancelled `request` while it was asked for: the ask is released.
    public mutating func cancelled(_ request: RequestID) -> [Action] {
        guard let ask = ask(of: request) else { return [] }
        asks[ask.reservation] = nil
        return [.release(reservation: ask.reservation, owner: ask.owner)]
    }

    /// Asks unanswered for longer than `patience` are released, and their requests matched at home.
    public mutating func expire(now: Double) -> [Action] {
        var actions: [Action] = []
        for ask in asks.values.sorted(by: { $0.reservation < $1.reservation }) where now - ask.since >= patience {
            asks[ask.reservation] = nil
            actions += [.release(reservation: ask.reservation, owner: ask.owner), .matchAtHome(ask.request)]
        }
        return actions
    }
}
