import RideDispatch
import Wire

/// Matching across a border (docs/ARCHITECTURE.md, "Sharded dispatch"), in the desk's own
/// journaled order: a new request near another region, with no driver at home within the
/// margin, is frozen and the neighbours in reach asked in turn to reserve their nearest idle
/// driver if that one is sooner by the margin; a grant hands the request over, a refusal asks the
/// next, no answer in time or a cancel matches it at home. The owner grants from its own books,
/// so only it ever offers its drivers.
extension DispatchDesk {
    /// A request just taken at home: asks the neighbours in reach, nearest first and one at a
    /// time, when no idle driver at home is within the margin of its pickup. Nothing for an
    /// unsharded desk, a request matched on arrival, or one far from every border.
    func askAcross(for id: RequestID, at time: Double) -> [Outgoing] {
        guard let shard = settings.shard, border != nil, let request = engine.request(id) else { return [] }
        let zone = engine.zones.zone(of: request.origin)
        let neighbours = shard.map.regions.regions(near: zone, within: shard.border.reach)
        guard !neighbours.isEmpty else { return [] }
        let home = engine.nearestIdle(to: request.origin, limit: 1, now: time).first?.seconds
        if let home, home <= shard.border.margin { return [] }
        guard (try? engine.freeze(id, now: time)) != nil else { return [] }
        return ask(for: id, among: neighbours, home: home, at: time)
    }

    /// Asks the first of `shards` for a driver for frozen request `id`; the others are asked in
    /// turn if it refuses.
    private func ask(for id: RequestID, among shards: [Int], home: Double?, at time: Double) -> [Outgoing] {
        guard let neighbour = shards.first, let request = engine.request(id), let name = requests.name(of: id) else {
            return []
        }
        border!.untried[id] = shards.count > 1 ? BorderDesk.Untried(shards: Array(shards.dropFirst()), home: home) : nil
        var out: [Outgoing] = []
        for action in border!.asks.ask(for: id, driver: nil, owner: neighbour, now: time) {
            guard case .reserve(let ask) = action else { continue }
            border!.counts.asked += 1
            out.append(
                send(
                    .reserve(reservation: ask.reservation, request: name, pickup: request.origin, homeETA: home), to: neighbour,
                    at: time))
        }
        return out
    }

    /// A frame from another shard: acknowledgements taken, its message delivered once and in
    /// order, acknowledged back. A frame that is not a shard's, or not well formed, is refused
    /// and counted (there is no session to answer).
    func shardFrame(_ frame: ShardFrame, authenticated: String?, at time: Double) -> [Outgoing] {
        guard let shard = settings.shard, border != nil else {
            refused += 1
            return []
        }
        let from = Int(frame.fromShard)
        guard from != shard.index, from < shard.map.shards else {
            refused += 1
            return []
        }
        if let authenticated, authenticated != shard.process(from) {
            refused += 1
            forbiddenCount += 1
            return []
        }
        border!.outgoing[from, default: sender].acknowledged(upTo: frame.acknowledged)
        guard frame.sequence > 0 else { return [] }
        let message: BorderMessage
        do throws(DeskFailure) {
            guard let wire = frame.message else {
                throw DeskFailure(code: .malformed, reason: "a numbered ShardFrame with no message")
            }
            message = try BorderMessage(wire, nodes: engine.graph.nodeCount)
        } catch {
            refused += 1
            return []
        }
        let (ready, acknowledged) = border!.incoming[from, default: ShardLink<BorderMessage>.Receiver()].receive(
            ShardLink<BorderMessage>.Numbered(sequence: frame.sequence, payload: message))
        var out: [Outgoing] = []
        for message in ready { out += deliver(message, from: from, at: time) }
        out.append(.toShard(shard: from, frame: self.frame(nil, to: from, acknowledging: acknowledged)))
        translate(engine.takeEvents(), into: &out)
        return out
    }

    /// The border's timers: unanswered asks and unused reservations expire, asks whose request
    /// ended at home meanwhile are released, frames unacknowledged too long are sent again.
    func borderTick(at time: Double) -> [Outgoing] {
        guard border != nil else { return [] }
        var out: [Outgoing] = []
        let expiring = border!.asks.expire(now: time)
        border!.counts.unanswered += expiring.filter { if case .matchAtHome = $0 { true } else { false } }.count
        out += perform(expiring, at: time)
        _ = border!.reservations.expire(now: time, engine: engine)
        out += releaseEnded(at: time)
        for shard in border!.outgoing.keys.sorted() {
            for message in border!.outgoing[shard]!.due(now: time) {
                out.append(.toShard(shard: shard, frame: frame(message, to: shard, acknowledging: nil)))
            }
        }
        return out
    }

    /// Asks whose request is no longer frozen here (the rider cancelled it, its session ended):
    /// released, so that the owner frees the driver.
    func releaseEnded(at time: Double) -> [Outgoing] {
        guard let asks = border?.asks.asks, !asks.isEmpty else { return [] }
        var out: [Outgoing] = []
        for ask in asks.values.sorted(by: { $0.reservation < $1.reservation }) where !engine.isFrozen(ask.request) {
            border!.untried[ask.request] = nil
            out += perform(border!.asks.cancelled(ask.request), at: time)
        }
        return out
    }

    /// The shard a request of this desk's was handed over to, as the failure to tell its rider's host.
    func requireNotHandedOut(_ id: RequestID, _ name: String) throws(DeskFailure) {
        guard let shard = settings.shard, let owner = engine.handedOutShard(of: id) else { return }
        throw DeskFailure(
            code: .notOwner, reason: "request \(name) was handed over to \(shard.process(owner)), whose driver is nearer",
            shard: owner)
    }

    private var sender: ShardLink<BorderMessage>.Sender {
        ShardLink<BorderMessage>.Sender(resendAfter: settings.shard?.border.resendAfter ?? 2)
    }

    /// Numbers `message` on the link to `shard` and frames it.
    private func send(_ message: BorderMessage, to shard: Int, at time: Double) -> Outgoing {
        let numbered = border!.outgoing[shard, default: sender].send(message, now: time)
        return .toShard(shard: shard, frame: frame(numbered, to: shard, acknowledging: nil))
    }

    /// A frame to `shard` carrying `message` (none: an acknowledgement only), acknowledging what
    /// this shard has of that shard's.
    private func frame(
        _ message: ShardLink<BorderMessage>.Numbered?, to shard: Int, acknowledging: UInt64?
    ) -> ShardFrame {
        ShardFrame.with {
            $0.fromShard = UInt32(settings.shard?.index ?? 0)
            $0.acknowledged = acknowledging ?? border?.incoming[shard]?.delivered ?? 0
            if let message {
                $0.sequence = message.sequence
                $0.message = message.payload.wire
            }
        }
    }

    private func deliver(_ message: BorderMessage, from shard: Int, at time: Double) -> [Outgoing] {
        switch message {
        case .reserve(let reservation, let request, let pickup, let homeETA):
            return [
                send(
                    reserve(reservation, request: request, pickup: pickup, homeETA: homeETA, from: shard, at: time), to: shard,
                    at: time)
            ]
        case .answer(let reservation, let granted, _, _, _, _):
            // An answer to an ask no longer in flight changes nothing: its release is on its way.
            guard let request = border!.asks.asks[reservation]?.request else { return [] }
            if granted { border!.counts.granted += 1 } else { border!.counts.refused += 1 }
            let actions = border!.asks.answered(reservation, granted: granted)
            if !granted, let next = border!.untried.removeValue(forKey: request), engine.isFrozen(request) {
                return ask(for: request, among: next.shards, home: next.home, at: time)
            }
            return perform(actions, at: time)
        case .release(let reservation):
            border!.reservations.release(reservation, now: time, engine: engine)
            return []
        case .handOver(let record):
            takeOver(record, at: time)
            return []
        }
    }

    /// The owner's side of a reservation: its idle driver nearest the pickup, held if it is sooner
    /// than the asker's best by the margin.
    private func reserve(
        _ reservation: String, request: String, pickup: Int, homeETA: Double?, from shard: Int, at time: Double
    ) -> BorderMessage {
        border!.counts.reserveAsked += 1
        let margin = settings.shard?.border.margin ?? 0
        let nearest = engine.nearestIdle(to: pickup, limit: 1, now: time).map {
            BorderChoice.Candidate(shard: settings.shard?.index ?? 0, driver: $0.driver, seconds: $0.seconds)
        }
        guard let chosen = BorderChoice.choose(home: homeETA, across: nearest, margin: margin) else {
            let reason = nearest.isEmpty ? "no idle driver here" : "no idle driver here is \(Int(margin)) s sooner"
            return .answer(reservation: reservation, granted: false, driver: "", eta: 0, expires: 0, reason: reason)
        }
        // The request gets a name here only if it is handed over: a name without its rider would
        // let anyone act for it.
        switch border!.reservations.reserve(
            reservation, driver: chosen.driver, for: request, from: shard, now: time, engine: engine)
        {
        case .granted(_, let driver, let expires):
            border!.counts.reserveGranted += 1
            return .answer(
                reservation: reservation, granted: true, driver: drivers.name(of: driver) ?? "", eta: chosen.seconds,
                expires: expires, reason: "")
        case .refused(_, let reason):
            return .answer(reservation: reservation, granted: false, driver: "", eta: 0, expires: 0, reason: reason)
        }
    }

    /// A request handed over to this shard: its rider's updates go to the rider's host's session
    /// here, and it is offered to the reserved driver at once (or matched like any other).
    private func takeOver(_ record: BorderMessage.BorderHandoverRecord, at time: Double) {
        let id = requests.id(for: record.request)
        guard engine.request(id) == nil else { return }
        riderOfRequest[id] = record.rider
        let session = sessions.values.filter { $0.principal.process == record.riderProcess }
            .max { ($0.lastHeard, $0.id) < ($1.lastHeard, $1.id) }?.id
        if let session {
            sessions[session]?.riders.insert(record.rider)
            riderLines[record.rider, default: RiderLine()].session = session
        }
        let request = RideDispatch.RideRequest(
            id: id, rider: 0, origin: record.origin, destination: record.destination, product: record.product,
            pickupAt: record.pickupAt)
        do throws(DispatchRefusal) {
            try border!.reservations.handOver(
                record.reservation, request: request, named: record.request, from: record.provenance, now: time,
                engine: engine)
            border!.counts.handedIn += 1
        } catch {
            assertionFailure("a request handed over was refused: \(error.reason)")
            unexpectedRefusals += 1
        }
    }

    /// Carries out what the asking side decided.
    private func perform(_ actions: [BorderAsks.Action], at time: Double) -> [Outgoing] {
        var out: [Outgoing] = []
        for action in actions {
            switch action {
            case .reserve:
                // Only an ask makes one, and ``askAcross(for:at:)`` sends it with the asker's best.
                assertionFailure("a reservation asked for outside askAcross")
            case .handOver(let id, let owner, let reservation):
                border!.untried[id] = nil
                guard let request = engine.request(id), let provenance = engine.provenance(of: id),
                    let name = requests.name(of: id), let rider = riderOfRequest[id],
                    (try? engine.handOut(id, to: owner, now: time)) != nil
                else {
                    unexpectedRefusals += 1
                    out.append(send(.release(reservation: reservation), to: owner, at: time))
                    continue
                }
                border!.counts.handedOut += 1
                let process =
                    riderLines[rider]?.session.flatMap { sessions[$0]?.principal.process } ?? settings.owners.owner(
                        ofRider: rider)
                    ?? ""
                out.append(
                    send(
                        .handOver(
                            BorderMessage.BorderHandoverRecord(
                                reservation: reservation, request: name, rider: rider, riderProcess: process,
                                origin: request.origin, destination: request.destination, product: request.product,
                                pickupAt: request.pickupAt, provenance: provenance)), to: owner, at: time))
            case .release(let reservation, let owner):
                out.append(send(.release(reservation: reservation), to: owner, at: time))
            case .matchAtHome(let id):
                border!.untried[id] = nil
                try? engine.thaw(id, now: time)
            }
        }
        return out
    }
}
