import City
import Demand

/// Puts wanted rides onto the road graph: origin and destination snap to the nearest road node
/// (rides farther than `maxSnapMetres` from any road, or starting and ending at one node, are
/// left out and counted).
public struct DemandPlacement {
    public let index: SnapIndex
    public var maxSnapMetres: Double

    public init(graph: RoadGraph, maxSnapMetres: Double = 250) {
        index = SnapIndex(graph: graph)
        self.maxSnapMetres = maxSnapMetres
    }

    /// The nearest node of the edge nearest to `point`, or `nil` if the road is too far.
    public func node(near point: GeoPoint) -> Int? {
        index.nearestNode(to: point, within: maxSnapMetres)?.node
    }

    /// The position of the node a point would be placed at, or `nil` if it is too far from a road.
    public func roadPoint(near point: GeoPoint) -> GeoPoint? {
        node(near: point).map { index.graph.positions[$0] }
    }

    public func place(_ trips: [DemandTrip]) -> (trips: [TripDemand], leftOut: [String: Int]) {
        var placed: [TripDemand] = []
        var leftOut: [String: Int] = [:]
        for trip in trips {
            guard let origin = node(near: trip.origin) else { leftOut["origin far from any road", default: 0] += 1; continue }
            guard let destination = node(near: trip.destination) else {
                leftOut["destination far from any road", default: 0] += 1
                continue
            }
            guard origin != destination else { leftOut["origin and destination at one node", default: 0] += 1; continue }
            placed.append(TripDemand(time: trip.time, origin: origin, destination: destination))
        }
        return (placed, leftOut)
    }
}
