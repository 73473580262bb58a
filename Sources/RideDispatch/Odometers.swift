import City

/// How far each driver has driven, empty (to pickups, repositioning) and loaded (with riders
/// aboard), from dispatch's events: a leg counts up to the node reached when it ends, is
/// replaced or cancelled.
public struct Odometers: Sendable {
    /// One driver's distance so far, in metres.
    public struct Reading: Sendable, Equatable, Codable {
        public var empty = 0.0
        public var loaded = 0.0
    }

    public let graph: RoadGraph
    public private(set) var readings: [DriverID: Reading] = [:]
    /// Every driver's distance added up.
    public private(set) var total = Reading()
    private var openLeg: [DriverID: OpenLeg] = [:]
    private var aboard: [DriverID: Int] = [:]

    /// A leg being driven, and whether with riders aboard.
    struct OpenLeg: Codable, Sendable {
        let leg: Leg
        let loaded: Bool
    }

    /// The readings and what is being driven: what a snapshot keeps (the roads come from the
    /// topology).
    public struct State: Codable, Sendable {
        var readings: [DriverID: Reading]
        var total: Reading
        var openLeg: [DriverID: OpenLeg]
        var aboard: [DriverID: Int]
    }

    public var state: State { State(readings: readings, total: total, openLeg: openLeg, aboard: aboard) }

    /// Puts the odometers in `state` (taken from odometers of the same roads).
    public mutating func restore(_ state: State) {
        readings = state.readings
        total = state.total
        openLeg = state.openLeg
        aboard = state.aboard
    }

    public init(graph: RoadGraph) {
        self.graph = graph
    }

    /// One driver's reading (zero for a driver that has not driven).
    public subscript(driver: DriverID) -> Reading { readings[driver] ?? Reading() }

    public mutating func record(_ timed: TimedDispatchEvent) {
        let time = timed.time
        switch timed.event {
        case .pickedUp(_, let driver):
            closeLeg(of: driver, at: time)
            aboard[driver, default: 0] += 1
        case .finished(_, .completed, let driver?):
            closeLeg(of: driver, at: time)
            aboard[driver, default: 1] -= 1
        case .finished(_, .cancelled(.driver, _), let driver?):
            aboard[driver] = max(0, aboard[driver, default: 0] - 1)
        case .drive(let driver, let leg):
            closeLeg(of: driver, at: time)
            openLeg[driver] = OpenLeg(leg: leg, loaded: aboard[driver, default: 0] > 0)
        case .driverState(let driver, let state):
            if state == .idle || state == .offline { closeLeg(of: driver, at: time) }
        case .legCancelled(let driver, _):
            closeLeg(of: driver, at: time)
        case .requested, .scheduled, .offered, .declined, .matched, .requeued, .finished, .surge, .handedOut:
            break
        }
    }

    /// Counts every open leg up to `time`.
    public mutating func closeAll(at time: Double) {
        for driver in openLeg.keys.sorted() { closeLeg(of: driver, at: time) }
    }

    /// Counts the distance driven on the driver's open leg up to `time`.
    private mutating func closeLeg(of driver: DriverID, at time: Double) {
        guard let (leg, loaded) = openLeg.removeValue(forKey: driver).map({ ($0.leg, $0.loaded) }) else { return }
        let nodes = leg.timeline.route.nodes
        let reached = leg.timeline.lastNodeIndex(at: time)
        var metres = 0.0
        for index in 0..<reached {
            if let edge = graph.fastestEdge(from: nodes[index], to: nodes[index + 1]) { metres += Double(graph.edgeLength[edge]) }
        }
        if loaded {
            readings[driver, default: Reading()].loaded += metres
            total.loaded += metres
        } else {
            readings[driver, default: Reading()].empty += metres
            total.empty += metres
        }
    }
}
