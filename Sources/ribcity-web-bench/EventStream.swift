import City
import Randomness
import Wire
import ZeroMQ

/// The benchmark's bus events: a mix like a busy city's — mostly drivers changing state where
/// they are, legs along the streets, and requests created, matched, picked up and completed —
/// all from dispatch, the `k`-th at simulated millisecond `k` (which is how a frame tells the
/// benchmark what it brings).
struct EventStream: Sendable {
    let drivers: Int
    let positions: [(lat: Double, lon: Double)]
    /// Each node's neighbours, for legs that follow the streets.
    let neighbours: [[UInt32]]

    init(drivers: Int, graph: RoadGraph) {
        self.drivers = drivers
        positions = graph.positions.map { ($0.lat, $0.lon) }
        neighbours = (0..<graph.nodeCount).map { node in graph.edges(from: node).map { UInt32(graph.edgeTarget[$0]) } }
    }

    /// The driver the `k`-th event is about: every driver, evenly, whatever the kind of event.
    func driver(_ k: Int) -> String {
        "d-\(Int((UInt64(k) &* 0x9E37_79B9_7F4A_7C15) >> 40) % drivers)"
    }

    /// Thirty blocks' walk from node `start`, chosen by `seed`.
    func walk(from start: Int, seed: Int) -> [UInt32] {
        var nodes = [UInt32(start)]
        var random = SeededGenerator(seed: UInt64(truncatingIfNeeded: seed))
        for _ in 0..<30 {
            let next = neighbours[Int(nodes[nodes.count - 1])]
            guard !next.isEmpty else { break }
            nodes.append(next.randomElement(using: &random)!)
        }
        return nodes
    }

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
        case 5:
            event.kind = .legStarted
            event.driverID = driver(k)
            event.routeNodes = walk(from: (k &* 7_919) % positions.count, seed: k)
            event.departAtMs = Int64(k)
            event.arriveAtMs = Int64(k) + 120_000
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
            event.driverID = driver(k)
            event.driverState = [.idle, .offered, .enRoute, .onTrip][(k / drivers) % 4]
            event.location = location
        }
        let envelope = Envelope(.dispatchEvent(event), from: stamp, simTimeMs: Int64(k))
        return Message(Frames.Published(topic: Topic.dispatch + "bench", envelope: envelope).frames)
    }
}
