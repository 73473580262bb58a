import City

/// Routes real trips as a simulation would at their hour and kind of day: with a travel-time
/// model, each band's contraction hierarchy scaled by the hour; without one, the graph's own
/// free-flow times.
///
/// Not `Sendable`: hierarchies are built when first needed.
public final class TripRouter {
    public let graph: RoadGraph
    public let model: TravelTimeModel?
    private var schedules: [DayKind: TravelTimeSchedule] = [:]

    public init(graph: RoadGraph, model: TravelTimeModel?) {
        self.graph = graph
        self.model = model
        if let model {
            for days in DayKind.allCases {
                schedules[days] = TravelTimeSchedule(graph: graph, model: model, startSecondOfDay: 0, day: days)
            }
        } else {
            let free = TravelTimeSchedule(postedSpeedsOn: graph)
            for days in DayKind.allCases { schedules[days] = free }
        }
    }

    /// The router of `days` at `hour`.
    public func planner(_ days: DayKind, hour: Int) -> any RoutePlanner {
        schedules[days]!.planner(at: Double(hour) * 3_600 + 1)
    }

    /// The simulated trip: its time and length, or `nil` if no road leads there.
    public func route(_ trip: RealTrip) -> Route? {
        planner(trip.days, hour: trip.hour).route(from: trip.from, to: trip.to)
    }
}
