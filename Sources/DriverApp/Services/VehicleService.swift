import City
import RIBs
import Wire

/// The car: where it is, moving along the route of the leg it drives, on the road graph every
/// process builds from the topology's city.
final class VehicleService {
    let position: ModelStream<GeoPoint>
    /// The last road node reached.
    private(set) var node: Int
    /// Legs whose route named nodes this city does not have (ignored, counted).
    private(set) var badRoutes = 0
    private var timeline: RouteTimeline?
    private let graph: RoadGraph

    init(graph: RoadGraph, node: Int) {
        self.graph = graph
        self.node = node
        position = ModelStream(graph.positions[node])
    }

    var isMoving: Bool { timeline != nil }

    /// When the car reaches the end of its leg, while it drives one.
    var arrival: Double? { timeline?.arrival }

    /// Starts driving a leg's route. A route with nodes outside this graph is refused.
    @discardableResult
    func follow(_ leg: DriveTo) -> Bool {
        let nodes = leg.routeNodes.map(Int.init)
        guard !nodes.isEmpty, nodes.allSatisfy({ $0 < graph.nodeCount }) else {
            badRoutes += 1
            return false
        }
        let seconds = max(0, leg.arrival.seconds - leg.departure.seconds)
        timeline = RouteTimeline(
            route: Route(time: seconds, length: 0, nodes: nodes), departure: leg.departure.seconds, graph: graph)
        return true
    }

    /// Stops where the car is (its leg was cancelled).
    func halt() {
        timeline = nil
    }

    /// Moves to where the route puts the car at `time`; true when it has reached the end.
    func move(to time: Double) -> Bool {
        guard let timeline else { return false }
        node = timeline.route.nodes[timeline.lastNodeIndex(at: time)]
        position.send(timeline.position(at: time))
        guard time >= timeline.arrival else { return false }
        self.timeline = nil
        return true
    }
}
