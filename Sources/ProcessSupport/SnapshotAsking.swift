import Foundation
import Wire
import ZeroMQ

/// A watcher of the bus that joined late asks dispatch for the city as it stands (the ZeroMQ
/// guide's *Clone* pattern): a Hello as a monitor named `process`, then a `SnapshotRequest`, on
/// `dealer` (connected to dispatch's sessions). The chunks come back on the same socket.
public func askForSnapshot(on dealer: Socket, as process: String) async throws {
    let session = "\(process)-\(getpid())"
    var stamper = SequenceStamper(sender: session)
    for body in [
        Envelope.OneOf_Body.hello(
            Hello.with {
                $0.role = .monitor
                $0.sessionID = session
                $0.process = process
                $0.sessionToken = SessionToken.draw()
            }),
        .snapshotRequest(SnapshotRequest()),
    ] {
        try await dealer.send(Message([WireCodec.encode(Envelope(body, from: stamper.next()))]))
    }
}

/// Asks every dispatch shard for its snapshot, as `process`: a DEALER per shard's sessions
/// endpoint (given in shard order; one for one dispatch), each with its request sent. Returns
/// each shard's process name and socket, in shard order, to read the chunks from.
public func askEveryShardForSnapshot(
    at endpoints: [String], on transport: Transport, as process: String
) async throws -> [(process: String, socket: Socket)] {
    var dealers: [(process: String, socket: Socket)] = []
    for (shard, endpoint) in endpoints.enumerated() {
        let dealer = try await transport.socket(.dealer)
        try await dealer.connect(endpoint)
        try await askForSnapshot(on: dealer, as: process)
        dealers.append((WireIDs.dispatchProcess(shard: shard, of: endpoints.count), dealer))
    }
    return dealers
}
