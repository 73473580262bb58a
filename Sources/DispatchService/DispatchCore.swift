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
    private(set) var stampers = Stampers()
    private(set) var malformed = WireErrorCounts()
    /// How late (simulated seconds) sessions' messages arrived, by their stamps, since last reset.
    var lateness: Double = 0
    /// A `Stop` arrived (tools end a dispatch this way).
    private(set) var stopRequested = false

    init(desk: DispatchDesk) {
        self.desk = desk
    }

    /// Acts on one entry, adding what it sends to `out`.
    func apply(_ entry: JournalEntry, into out: inout Outbox) {
        switch entry {
        case .started:
            break
        case .received(let time, let frames):
            receive(frames, at: time, into: &out)
        case .tick(let time):
            out.add(desk.tick(at: time), at: time, stampers: &stampers)
        case .recovered(let time):
            desk.recover(at: time)
        }
    }

    private func receive(_ frames: [[UInt8]], at time: Double, into out: inout Outbox) {
        let request: Frames.Routed
        do {
            request = try Frames.Routed(frames: frames)
        } catch {
            malformed.record(error)
            return
        }
        if case .snapshotRequest? = request.envelope.body {
            let chunks = snapshot(for: request, at: time)
            if !out.replaying { out.routed += chunks }
            return
        }
        if case .stop? = request.envelope.body { stopRequested = true }
        // Sessions stamp their simulated time: how late their messages get here.
        if request.envelope.simTimeMs > 0 {
            lateness = max(lateness, time - request.envelope.simTime.seconds)
        }
        out.add(desk.receive(request.envelope, from: request.peer, at: time), at: time, stampers: &stampers)
    }

    /// Dispatch's state in chunks of a thousand events, current to the bus sequence stamped last.
    private func snapshot(for request: Frames.Routed, at time: Double) -> [Message] {
        let state = desk.snapshot()
        let chunks = stride(from: 0, to: max(1, state.count), by: 1_000).map { Array(state[$0..<min(state.count, $0 + 1_000)]) }
        return chunks.enumerated().map { index, part in
            let chunk = SnapshotChunk.with {
                $0.sequenceAt = stampers.events.lastSequence
                $0.state = part
                $0.last = index == chunks.count - 1
            }
            let envelope = Envelope(
                .snapshotChunk(chunk), from: stampers.replies.next(), inReplyTo: request.envelope.messageID,
                simTimeMs: SimTime(seconds: time).wireMilliseconds)
            return Message(Frames.Routed(peer: request.peer, envelope: envelope).frames)
        }
    }

    /// Stamps a health report on the status topic (not journaled: status has its own sequence,
    /// which starts again with each process).
    func statusEnvelope(_ status: ProcessStatus, at time: Double) -> Envelope {
        Envelope(.processStatus(status), from: stampers.status.next(), simTimeMs: SimTime(seconds: time).wireMilliseconds)
    }
}
