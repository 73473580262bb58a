import Wire

/// What the dispatch desk wants sent: a message to one session, or an event on the bus.
public enum Outgoing: Sendable {
    /// To the session at `peer` (a ROUTER identity); `inReplyTo` names the request answered.
    case toPeer(peer: [UInt8], body: Envelope.OneOf_Body, inReplyTo: String)
    /// On the event bus under `topic`.
    case publish(topic: String, event: Wire.DispatchEvent)
    /// Dispatch's whole state in chunks, to the session at `peer` (which may ask for it).
    case snapshot(peer: [UInt8], inReplyTo: String)
    /// To dispatch shard `shard`, on the link between the two (sharded dispatch).
    case toShard(shard: Int, frame: ShardFrame)
}

extension Outgoing: Codable {
    private enum CodingKeys: CodingKey { case kind, peer, body, inReplyTo, topic, event, shard, frame }
    private enum Kind: UInt8, Codable { case toPeer, publish, snapshot, toShard }

    /// A message to a peer keeps its body as an envelope's bytes (a oneof has no bytes of its own).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .toPeer(let peer, let body, let inReplyTo):
            try container.encode(Kind.toPeer, forKey: .kind)
            try container.encode(peer, forKey: .peer)
            var envelope = Envelope()
            envelope.body = body
            try container.encode(CodedMessage(envelope), forKey: .body)
            try container.encode(inReplyTo, forKey: .inReplyTo)
        case .publish(let topic, let event):
            try container.encode(Kind.publish, forKey: .kind)
            try container.encode(topic, forKey: .topic)
            try container.encode(CodedMessage(event), forKey: .event)
        case .snapshot(let peer, let inReplyTo):
            try container.encode(Kind.snapshot, forKey: .kind)
            try container.encode(peer, forKey: .peer)
            try container.encode(inReplyTo, forKey: .inReplyTo)
        case .toShard(let shard, let frame):
            try container.encode(Kind.toShard, forKey: .kind)
            try container.encode(shard, forKey: .shard)
            try container.encode(CodedMessage(frame), forKey: .frame)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .toPeer:
            let peer = try container.decode([UInt8].self, forKey: .peer)
            guard let body = try container.decode(CodedMessage<Envelope>.self, forKey: .body).message.body else {
                throw DecodingError.dataCorruptedError(forKey: .body, in: container, debugDescription: "a reply with no body")
            }
            self = .toPeer(peer: peer, body: body, inReplyTo: try container.decode(String.self, forKey: .inReplyTo))
        case .publish:
            let topic = try container.decode(String.self, forKey: .topic)
            self = .publish(
                topic: topic, event: try container.decode(CodedMessage<Wire.DispatchEvent>.self, forKey: .event).message)
        case .snapshot:
            let peer = try container.decode([UInt8].self, forKey: .peer)
            self = .snapshot(peer: peer, inReplyTo: try container.decode(String.self, forKey: .inReplyTo))
        case .toShard:
            self = .toShard(
                shard: try container.decode(Int.self, forKey: .shard),
                frame: try container.decode(CodedMessage<ShardFrame>.self, forKey: .frame).message)
        }
    }
}
