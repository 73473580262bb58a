import Testing

@testable import Wire

@Suite("Wire codec")
struct CodecTests {
    static func sampleBodies() -> [Envelope.OneOf_Body] {
        var request = RideRequest()
        request.requestID = "r-1"
        request.riderID = "rider-9"
        request.pickup = LatLon.with {
            $0.lat = 40.7128; $0.lon = -74.006
        }
        request.dropoff = LatLon.with {
            $0.lat = 40.73; $0.lon = -73.99
        }
        request.product = .pool
        request.seats = 2
        var offer = Offer()
        offer.offerID = "o-1"
        offer.requestID = "r-1"
        offer.fareCents = 1_250
        offer.expiresAtMs = 61_000
        var event = DispatchEvent()
        event.kind = .tripCompleted
        event.fareCents = 1_250
        event.cancelledBy = .unspecified
        return [
            .hello(
                Hello.with {
                    $0.role = .riders; $0.sessionID = "riders-1"; $0.appIds = ["a", "b"]
                }),
            .heartbeat(Heartbeat()),
            .rideRequest(request),
            .offer(offer),
            .dispatchEvent(event),
            .windowOpen(
                WindowOpen.with {
                    $0.window = 7; $0.startMs = 3_600_000; $0.endMs = 3_600_020
                }),
            .error(
                ErrorReply.with {
                    $0.code = .unknownSession; $0.reason = "expired"
                }),
        ]
    }

    @Test("Every body survives encode and decode unchanged")
    func roundTrip() throws {
        var stamper = SequenceStamper(sender: "riders-1")
        for body in Self.sampleBodies() {
            let envelope = Envelope(body, from: stamper.next(), inReplyTo: "dispatch:4", simTimeMs: 12_345)
            let decoded = try WireCodec.decode(WireCodec.encode(envelope))
            #expect(decoded == envelope)
            #expect(decoded.protocolVersion == WireCodec.protocolVersion)
        }
        #expect(stamper.lastSequence == UInt64(Self.sampleBodies().count))
    }

    @Test("Message ids are stable per stamp, so a retry carries the same id")
    func messageIDs() {
        var stamper = SequenceStamper(sender: "riders-2", startingAfter: 41)
        let stamp = stamper.next()
        #expect(stamp.sequence == 42)
        #expect(stamp.messageID == "riders-2:42")
        let first = Envelope(.heartbeat(Heartbeat()), from: stamp)
        let retry = Envelope(.heartbeat(Heartbeat()), from: stamp)
        #expect(first.messageID == retry.messageID)
        #expect(first.bodyName == "heartbeat")
    }

    @Test(
        "A message id is the sender, a colon and the sequence in decimal, whatever the sender's length or characters",
        arguments: ["", "x", "riders-2", "dispatch-3-status", "fahrer-ß-東京"])
    func messageIDDigits(sender: String) {
        for sequence: UInt64 in [0, 1, 9, 10, 99, 100, 12_345, 1 << 32, UInt64.max - 1, UInt64.max] {
            #expect(SenderStamp(sender: sender, sequence: sequence).messageID == sender + ":" + String(sequence))
        }
    }

    @Test("A missing or future protocol version is refused")
    func versions() throws {
        var envelope = Envelope(.heartbeat(Heartbeat()), from: SenderStamp(sender: "x", sequence: 1))
        envelope.protocolVersion = 2
        let bytes = try envelope.serializedBytes() as [UInt8]
        #expect(throws: WireError.unsupportedVersion(2)) { try WireCodec.decode(bytes) }
        envelope.protocolVersion = 0
        let unversioned = try envelope.serializedBytes() as [UInt8]
        #expect(throws: WireError.unsupportedVersion(0)) { try WireCodec.decode(unversioned) }
    }

    @Test("An envelope without a known body is refused")
    func unknownBody() throws {
        var envelope = Envelope()
        envelope.protocolVersion = 1
        envelope.sender = "x"
        // Field 999 stands for a message type from a newer build.
        let bytes = (try envelope.serializedBytes() as [UInt8]) + [0xBA, 0x3E, 0x02, 0x08, 0x01]
        #expect(throws: WireError.unknownBody) { try WireCodec.decode(bytes) }
    }

    @Test("Frame layouts: routed, published and direct")
    func frames() throws {
        let envelope = Envelope(.heartbeat(Heartbeat()), from: SenderStamp(sender: "d", sequence: 7))
        let routed = Frames.Routed(peer: [1, 2, 3], envelope: envelope)
        #expect(try Frames.Routed(frames: routed.frames).envelope == envelope)
        #expect(try Frames.Routed(frames: routed.frames).peer == [1, 2, 3])
        #expect(throws: WireError.frameCount(got: 1, expected: "2 (identity, envelope)")) {
            try Frames.Routed(frames: [WireCodec.encode(envelope)])
        }
        let published = Frames.Published(topic: Topic.dispatchRequest, envelope: envelope)
        #expect(try Frames.Published(frames: published.frames).topic == "dispatch.request")
        #expect(throws: WireError.badTopic) { try Frames.Published(frames: [[], WireCodec.encode(envelope)]) }
        #expect(throws: WireError.badTopic) { try Frames.Published(frames: [[0xFF, 0xFE], WireCodec.encode(envelope)]) }
        #expect(try Frames.direct([WireCodec.encode(envelope)]) == envelope)
        #expect(throws: WireError.self) { try Frames.direct([]) }
    }

    @Test("Oversized payloads are refused before parsing")
    func tooLarge() {
        let bytes = [UInt8](repeating: 0, count: WireCodec.maximumPayloadBytes + 1)
        #expect(throws: WireError.tooLarge(bytes: bytes.count)) { try WireCodec.decode(bytes) }
    }

    @Test("Errors are counted by kind")
    func counting() {
        var counts = WireErrorCounts()
        counts.record(.unknownBody)
        counts.record(.malformed(reason: "x"))
        counts.record(.malformed(reason: "y"))
        #expect(counts.total == 3)
        #expect(counts.byKind["malformed"] == 2)
    }
}
