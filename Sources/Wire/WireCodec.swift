import SwiftProtobuf

/// Encodes and decodes ribcity messages: one ``Envelope`` per payload frame.
public enum WireCodec {
    /// The protocol version this build speaks.
    public static let protocolVersion: UInt32 = 1
    /// Payloads above this are refused before parsing (a defence against garbage, not a real limit).
    public static let maximumPayloadBytes = 4 << 20

    /// The bytes of an envelope, with the protocol version filled in when it was left at 0.
    public static func encode(_ envelope: Envelope) -> [UInt8] {
        var envelope = envelope
        if envelope.protocolVersion == 0 { envelope.protocolVersion = protocolVersion }
        // Serialising a message made of known fields cannot fail.
        return (try? envelope.serializedBytes()) ?? []
    }

    /// Parses and validates a payload frame. Never traps, whatever the bytes.
    public static func decode(_ payload: [UInt8]) throws(WireError) -> Envelope {
        guard payload.count <= maximumPayloadBytes else { throw .tooLarge(bytes: payload.count) }
        let envelope: Envelope
        do {
            envelope = try Envelope(serializedBytes: payload)
        } catch {
            throw .malformed(reason: "\(error)")
        }
        guard envelope.protocolVersion == protocolVersion else {
            throw .unsupportedVersion(envelope.protocolVersion)
        }
        guard envelope.body != nil else { throw .unknownBody }
        return envelope
    }
}

extension Envelope {
    /// An envelope around a body, stamped with the sender's id, message id and sequence number.
    public init(_ body: Envelope.OneOf_Body, from stamp: SenderStamp, inReplyTo: String = "", simTimeMs: Int64 = 0) {
        self.init()
        protocolVersion = WireCodec.protocolVersion
        sender = stamp.sender
        messageID = stamp.messageID
        sequence = stamp.sequence
        self.inReplyTo = inReplyTo
        self.simTimeMs = simTimeMs
        self.body = body
    }

    /// The body's case name (`rideRequest`, `heartbeat`, …), for logs and counters.
    public var bodyName: String {
        guard let body else { return "none" }
        return Mirror(reflecting: body).children.first?.label ?? "unknown"
    }
}
