import RideDispatch
import SimulatedTime
import Wire

extension DispatchDesk {
    /// Whether a rider can be reached in the app now: their own ride is under way (their app is
    /// open) on a session that has a line.
    func inTheApp(_ rider: String) -> Bool {
        guard let id = requests[WireIDs.request(ofRider: rider)], engine.progress(of: id) != nil else { return false }
        return line(of: riderLines[rider]?.session) != nil
    }

    /// Shares a ride's ETA with the riders named (or stops sharing it): each reached rider is
    /// sent where the ride stands now.
    func share(_ message: ShareEta, _ reply: Reply, at time: Double) throws(DeskFailure) -> [Outgoing] {
        let id = try ownRide(message.requestID, "ShareEta")
        if message.stop {
            let recipients = sharing.shares.removeValue(forKey: id) ?? []
            return reply.acknowledged + recipients.flatMap { sharedETA(of: id, to: $0, ended: true) }
        }
        let named = Self.distinct(message.recipientIds.filter { $0 != message.riderID })
        let reached = named.filter(inTheApp)
        let known = sharing.shares[id] ?? []
        let added = reached.filter { !known.contains($0) }
        sharing.shares[id] = known + added
        return reply.acknowledged
            + added.flatMap { sharedETA(of: id, to: $0, ended: false) }
            + [
                riderEvent(.etaShared, request: id, rider: message.riderID, contacts: reached) {
                    if reached.count < named.count { $0.reason = "\(named.count - reached.count) not in the app" }
                }
            ]
    }

    /// Invites riders to split a ride's fare: each invitee in the app is sent an invitation.
    func invite(_ message: SplitFareInvite, _ reply: Reply, at time: Double) throws(DeskFailure) -> [Outgoing] {
        let id = try ownRide(message.requestID, "SplitFareInvite")
        let named = Self.distinct(message.inviteeIds.filter { $0 != message.riderID })
        var split =
            sharing.splits[id]
            ?? RideSharing.Split(inviter: message.riderID, answers: [], expires: time + RideSharing.answerWindow)
        let reached = named.filter { rider in inTheApp(rider) && !split.answers.contains { $0.rider == rider } }
        guard !reached.isEmpty else { return reply.acknowledged }
        split.answers += reached.map { RideSharing.Answer(rider: $0, accepted: nil) }
        split.expires = time + RideSharing.answerWindow
        sharing.splits[id] = split
        let estimate = Int64(engine.quotedPriceCents(of: id) ?? 0)
        var out = reply.acknowledged
        for invitee in reached {
            let name = sharing.invitationName()
            sharing.invitations[name] = RideSharing.Invitation(request: id, invitee: invitee)
            let invitation = SplitInvitation.with {
                $0.invitationID = name
                $0.inviteeID = invitee
                $0.fromRiderID = message.riderID
                $0.requestID = message.requestID
                $0.estimatedFareCents = estimate
                $0.expiresAtMs = SimTime(seconds: split.expires).wireMilliseconds
            }
            if let peer = line(of: riderLines[invitee]?.session) {
                out.append(.toPeer(peer: peer, body: .splitInvitation(invitation), inReplyTo: ""))
            }
        }
        out.append(riderEvent(.splitInvited, request: id, rider: message.riderID, contacts: reached))
        return out
    }

    /// An invitee's answer, taken while the invitation is open.
    func answer(_ message: SplitAnswer, _ reply: Reply, at time: Double) throws(DeskFailure) -> [Outgoing] {
        guard let invitation = sharing.invitations[message.invitationID], invitation.invitee == message.riderID,
            var split = sharing.splits[invitation.request],
            let index = split.answers.firstIndex(where: { $0.rider == message.riderID })
        else {
            throw DeskFailure(code: .unknownRequest, reason: "no open invitation \(message.invitationID) for \(message.riderID)")
        }
        guard time <= split.expires else {
            throw DeskFailure(code: .expired, reason: "invitation \(message.invitationID) expired")
        }
        // An answer given again (a retry, or a change of mind) stands as first given.
        guard split.answers[index].accepted == nil else { return reply.acknowledged }
        split.answers[index].accepted = message.accept
        sharing.splits[invitation.request] = split
        return reply.acknowledged
            + [
                riderEvent(.splitAnswered, request: invitation.request, rider: split.inviter, contacts: [message.riderID]) {
                    $0.accepted = message.accept
                }
            ]
    }

    /// What a change of a shared ride (its state, its car's leg) means for the riders it is
    /// shared with: each is told where it stands (and, once it has ended, that the share is over).
    func sharedUpdates(of id: RequestID) -> [Outgoing] {
        guard let recipients = sharing.shares[id], let rider = riderOfRequest[id] else { return [] }
        let ended = riderLines[rider]?.lastUpdate.map { Self.isTerminal($0.state) } ?? false
        let out = recipients.flatMap { sharedETA(of: id, to: $0, ended: ended) }
        if ended { sharing.shares[id] = nil }
        return out
    }

    static func isTerminal(_ state: TripState) -> Bool { [.completed, .cancelled, .rejected].contains(state) }

    /// At the dropoff: the fare in shares among the inviter and the invitees who accepted,
    /// sent to each payer and published; nothing when nobody accepted. Every other end of the
    /// ride voids its split.
    func splitFare(of id: RequestID, fareCents: Int64, at time: Double) -> [Outgoing] {
        defer { sharing.end(id) }
        guard let split = sharing.splits[id], split.payers.count > 1, let name = requests.name(of: id) else { return [] }
        let shares = RideSharing.shares(of: fareCents, among: split.payers)
        checker.recordSplit(
            of: id, fareCents: Int(fareCents), shares: shares.map { ($0.rider, Int($0.cents)) }, at: time)
        let wireShares = shares.map { share in
            FareShare.with {
                $0.riderID = share.rider
                $0.cents = share.cents
            }
        }
        var out: [Outgoing] = []
        for payer in split.payers {
            guard let peer = line(of: riderLines[payer]?.session) else { continue }
            let message = FareSplit.with {
                $0.requestID = name
                $0.tripID = WireIDs.trip(ofRequest: name)
                $0.riderID = payer
                $0.fareCents = fareCents
                $0.shares = wireShares
            }
            out.append(.toPeer(peer: peer, body: .fareSplit(message), inReplyTo: ""))
        }
        out.append(
            riderEvent(.fareSplit, request: id, rider: split.inviter, contacts: []) {
                $0.fareCents = fareCents
                $0.shares = wireShares
            })
        return out
    }

    private func sharedETA(of id: RequestID, to recipient: String, ended: Bool) -> [Outgoing] {
        guard let peer = line(of: riderLines[recipient]?.session), let name = requests.name(of: id),
            let rider = riderOfRequest[id]
        else { return [] }
        let update = riderLines[rider]?.lastUpdate
        let shared = SharedEta.with {
            $0.recipientID = recipient
            $0.fromRiderID = rider
            $0.requestID = name
            $0.state = update?.state ?? .matching
            $0.arriveAtMs = arrival(of: id, state: $0.state) ?? 0
            $0.ended = ended || update.map { Self.isTerminal($0.state) } ?? false
        }
        return [.toPeer(peer: peer, body: .sharedEta(shared), inReplyTo: "")]
    }

    /// When the ride's car is due where the ride stands next: the pickup while it comes, the
    /// dropoff on the trip, if its current leg goes there.
    private func arrival(of id: RequestID, state: TripState) -> Int64? {
        guard state == .driverAssigned || state == .onTrip, let progress = engine.progress(of: id),
            let driver = WireMapping.driver(of: progress), let driverName = drivers.name(of: driver),
            let leg = driverLines[driverName]?.lastLeg, !leg.cancelled, leg.requestID == requests.name(of: id)
        else { return nil }
        let wanted: StopKind = state == .driverAssigned ? .pickup : .dropoff
        return leg.stop == wanted ? leg.arriveAtMs : nil
    }

    /// The request named, which the authorizer has checked is the sender's own ride.
    private func ownRide(_ name: String, _ kind: String) throws(DeskFailure) -> RequestID {
        guard let id = requests[name] else { throw DeskFailure(code: .unknownRequest, reason: "no request \(name)") }
        // Handed across a border: the host is sent on to the shard that has the ride now.
        try requireNotHandedOut(id, name)
        guard engine.progress(of: id) != nil else {
            throw DeskFailure(code: .invalidState, reason: "\(kind): request \(name) has ended")
        }
        return id
    }

    private func riderEvent(
        _ kind: DispatchEventKind, request id: RequestID, rider: String, contacts: [String],
        _ fill: (inout Wire.DispatchEvent) -> Void = { _ in }
    ) -> Outgoing {
        var event = Wire.DispatchEvent.with {
            $0.kind = kind
            if let name = requests.name(of: id) {
                $0.requestID = name
                $0.tripID = WireIDs.trip(ofRequest: name)
            }
            $0.riderID = rider
            $0.contacts = contacts
        }
        fill(&event)
        return .publish(topic: Topic.dispatchRequest, event: event)
    }

    private static func distinct(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
