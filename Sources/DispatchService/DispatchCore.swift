import SimulatedTime
import Wire
import ZeroMQ

/// Everything the dispatch process knows, and so everything a journal replay rebuilds: the desk
/// (with its engine), the sequence numbers of what it sent, the count of malformed messages.
/// Journal entries go in; framed messages to send come out. No sockets, no clocks.
///
/// Not `Sendable`: the dispatch server's actor owns it.
final class DispatchCore {
    let desk: DispatchDesk
    var stampers: Stampers
    var malformed = WireErrorCounts()
    /// How late (simulated seconds) sessions' messages arrived, by their stamps, since last reset.
    var lateness: Double = 0
    /// A `Stop` came from a session allowed to send one (tools end a dispatch this way).
    var stopRequested: Bool { desk.stopRequested }

    /// - Parameter process: the dispatch process's name, which its senders carry.
    init(desk: DispatchDesk, process: String = "dispatch") {
        self.desk = desk
        stampers = Stampers(process: process)
    }

    /// Acts on one entry, adding what it sends to `out`.
    /// - Parameter decoded: a received entry's frames already decoded (they are, when a message
    ///   is held for its window), so that they are not decoded twice.
    /// - Returns: what the journal keeps of it: the entry itself, or for a frame that was not a
    ///   message, a few bytes that say so (what replay needs to count it).
    @discardableResult
    func apply(_ entry: JournalEntry, decoded: Frames.Routed? = nil, into out: inout Outbox) -> JournalEntry {
        switch entry {
        case .started:
            return entry
        case .received(let time, let frames, let user):
            do throws(WireError) {
                let routed = if let decoded { decoded } else { try Frames.Routed(frames: frames) }
                receive(routed, user: user, at: time, into: &out)
                return entry
            } catch {
                let peer = frames.count > 1 ? frames[0] : []
                let kept = JournalEntry.malformed(time: time, kind: error.kind, peer: peer)
                apply(kept, into: &out)
                if !out.replaying, let reply = malformedReply(error, to: peer, at: time) { out.refusals.append(reply) }
                return kept
            }
        case .malformed(_, let kind, _):
            malformed.record(kind: kind)
            return entry
        case .tick(let time):
            out.add(desk.tick(at: time), at: time, stampers: &stampers)
            return entry
        case .recovered(let time):
            desk.recover(at: time)
            return entry
        }
    }

    /// The MALFORMED (or UNSUPPORTED_VERSION) reply to a frame that was not a message, none for
    /// one that came with no identity. Framed at once, outside the windows of virtual time and
    /// under a sender of its own: a garbage sender is no participant, and its answers must not
    /// shift what participants are sent (their stamps, their links, the faults drawn for them).
    private func malformedReply(_ error: WireError, to peer: [UInt8], at time: Double) -> Message? {
        guard !peer.isEmpty else { return nil }
        let code: ErrorCode = if case .unsupportedVersion = error { .unsupportedVersion } else { .malformed }
        let envelope = Envelope(
            .error(
                ErrorReply.with {
                    $0.code = code
                    $0.reason = error.description
                }), from: stampers.refusals.next(), simTimeMs: SimTime(seconds: time).wireMilliseconds)
        return Message(Frames.Routed(peer: peer, envelope: envelope).frames)
    }

    private func receive(_ request: Frames.Routed, user: String, at time: Double, into out: inout Outbox) {
        // Sessions stamp their simulated time: how late their messages get here.
        if request.envelope.simTimeMs > 0 {
            lateness = max(lateness, time - request.envelope.simTime.seconds)
        }
        let outgoing = desk.receive(request.envelope, from: request.peer, authenticated: user.isEmpty ? nil : user, at: time)
        for item in outgoing {
            guard case .snapshot(let peer, let inReplyTo) = item else { continue }
            let chunks = snapshot(to: peer, inReplyTo: inReplyTo, at: time)
            if !out.replaying { out.routed += chunks }
        }
        out.add(outgoing, at: time, stampers: &stampers)
    }

    /// Dispatch's state in chunks of a thousand events, current to the bus sequence stamped last.
    private func snapshot(to peer: [UInt8], inReplyTo: String, at time: Double) -> [Message] {
        let state = desk.snapshot()
        let chunks = stride(from: 0, to: max(1, state.count), by: 1_000).map { Array(state[$0..<min(state.count, $0 + 1_000)]) }
        return chunks.enumerated().map { index, part in
            let chunk = SnapshotChunk.with {
                $0.sequenceAt = stampers.events.lastSequence
                $0.state = part
                $0.last = index == chunks.count - 1
                if $0.last {
                    $0.totals = stampers.eventsByKind.sorted { $0.key.rawValue < $1.key.rawValue }.map { kind, count in
                        EventCount.with {
                            $0.kind = kind
                            $0.count = UInt64(count)
                        }
                    }
                }
            }
            let envelope = Envelope(
                .snapshotChunk(chunk), from: stampers.replies.next(), inReplyTo: inReplyTo,
                simTimeMs: SimTime(seconds: time).wireMilliseconds)
            return Message(Frames.Routed(peer: peer, envelope: envelope).frames)
        }
    }

    /// Stamps a health report on the status topic (not journaled: status has its own sequence,
    /// which starts again with each process).
    func statusEnvelope(_ status: ProcessStatus, at time: Double) -> Envelope {
        Envelope(.processStatus(status), from: stampers.status.next(), simTimeMs: SimTime(seconds: time).wireMilliseconds)
    }
}
