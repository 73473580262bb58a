import Wire
import ZeroMQ

/// The benchmark's bus events: a mix like a busy city's — mostly drivers changing state where
/// they are, and requests created, matched, picked up and completed — all from dispatch, the
/// `k`-th at simulated millisecond `k` (which is how a frame tells the benchmark what it brings).
struct EventStream: Sendable {
    let drivers: Int
    let positions: [(lat: Double, lon: Double)]

    /// The events 1…`count`, ready for the bus.
    func messages(_ count: Int) -> [Message] {
        var stamper = SequenceStamper(sender: "dispatch-bus")
        return (1...max(1, count)).map { message($0, stamp: stamper.next()) }
    }

    /// The `k`-th event, stamped `stamp` (its sequence is `k`).
    func message(_ k: Int, stamp: SenderStamp) -> Message {
        var event = Wire.DispatchEvent()
        let place = positions[(k &* 7_919) % positions.count]
        let location = LatLon.with {
            $0.lat = place.lat
            $0.lon = place.lon
        }
        let request = "r-\(k / 10)"
        switch k % 10 {
        case 6:
            event.kind = .requestCreated
            event.requestID = request
            event.location = location
        case 7:
            event.kind = .offerAccepted
            event.requestID = request
            event.driverID = "d-\(k % drivers)"
        case 8:
            event.kind = .tripStarted
            event.requestID = request
            event.pickupWaitS = UInt32(k % 300)
        case 9:
            event.kind = .tripCompleted
            event.requestID = request
            event.location = location
        default:
            event.kind = .driverStateChanged
            event.driverID = "d-\((k &* 31) % drivers)"
            event.driverState = [.idle, .offered, .enRoute, .onTrip][(k / drivers) % 4]
            event.location = location
        }
        let envelope = Envelope(.dispatchEvent(event), from: stamp, simTimeMs: Int64(k))
        return Message(Frames.Published(topic: Topic.dispatch + "bench", envelope: envelope).frames)
    }
}
