import Testing

@testable import City

@Suite("Travel-time model: bands, junction delays, hourly scales, a router per band")
struct TravelTimeModelTests {
    /// A 6 × 6 grid whose east–west streets are primary roads and north–south ones residential.
    static func classedGrid() -> (graph: RoadGraph, city: GridCity) {
        let city = GridCity(width: 1_250, height: 1_250, blockLength: 250, speedKmh: 36)
        var builder = RoadGraphBuilder()
        let plain = city.build()
        for position in plain.positions { builder.addNode(position) }
        for source in 0..<plain.nodeCount {
            for edge in plain.edges(from: source) {
                let target = Int(plain.edgeTarget[edge])
                let eastWest = abs(target - source) == 1
                builder.addEdge(
                    from: source, to: target, length: Double(plain.edgeLength[edge]), time: Double(plain.edgeTime[edge]),
                    roadClass: eastWest ? .primary : .residential)
            }
        }
        return (builder.build(), city)
    }

    static func model(primary: Double = 2, residential: Double = 1.5, junction: Double = 8) -> TravelTimeModel {
        var factors = [Double](repeating: 1, count: RoadClass.allCases.count)
        factors[Int(RoadClass.primary.rawValue)] = primary
        factors[Int(RoadClass.residential.rawValue)] = residential
        let bands = DayKind.allCases.flatMap { days in
            [
                TravelTimeModel.Band(days: days, fromHour: 0, toHour: 7, classFactors: factors, junctionSeconds: junction),
                TravelTimeModel.Band(
                    days: days, fromHour: 7, toHour: 24, classFactors: factors.map { $0 * 2 }, junctionSeconds: junction * 2),
            ]
        }
        var scales = [Double](repeating: 1, count: 24)
        scales[8] = 1.25
        return TravelTimeModel(
            bands: bands, hourScale: [.weekday: scales, .weekend: [Double](repeating: 1, count: 24)], pickupDwellSeconds: 30,
            dropoffDwellSeconds: 60)
    }

    @Test("An edge takes its free-flow time times its class's factor, plus the delay when it enters a junction")
    func edgeTimes() throws {
        let (graph, city) = Self.classedGrid()
        let junctions = graph.junctions()
        #expect(!junctions[city.node(x: 0, y: 0)], "a corner has two neighbours")
        #expect(junctions[city.node(x: 1, y: 0)] && junctions[city.node(x: 2, y: 2)])
        let times = Self.model().edgeTimes(on: graph, band: 0, junctions: junctions)
        let east = try #require(graph.fastestEdge(from: city.node(x: 0, y: 0), to: city.node(x: 1, y: 0)))
        let north = try #require(graph.fastestEdge(from: city.node(x: 1, y: 0), to: city.node(x: 1, y: 1)))
        let intoCorner = try #require(graph.fastestEdge(from: city.node(x: 1, y: 0), to: city.node(x: 0, y: 0)))
        #expect(abs(Double(times[east]) - (25 * 2 + 8)) < 0.001)
        #expect(abs(Double(times[north]) - (25 * 1.5 + 8)) < 0.001)
        #expect(abs(Double(times[intoCorner]) - 25 * 2) < 0.001)
    }

    @Test("Every band's hierarchy answers as Dijkstra on that band's weights, times the hour's scale")
    func schedulesAreExact() throws {
        let (graph, city) = Self.classedGrid()
        let model = Self.model()
        // 06:00 on a weekday: second 0 is in band 0, second 3,600 (07:00) in band 1, 7,200 (08:00) scaled.
        let schedule = TravelTimeSchedule(graph: graph, model: model, startSecondOfDay: 6 * 3_600, day: .weekday)
        let junctions = graph.junctions()
        let from = city.node(x: 0, y: 0), to = city.node(x: 5, y: 3)
        for (second, band, scale) in [(10.0, 0, 1.0), (3_700, 1, 1.0), (7_300, 1, 1.25)] {
            let dijkstra = PathFinder(graph: graph.withEdgeTimes(model.edgeTimes(on: graph, band: band, junctions: junctions)))
            let expected = try #require(dijkstra.travelTime(from: from, to: to))
            let answer = try #require(schedule.planner(at: second).travelTime(from: from, to: to))
            #expect(abs(answer - expected * scale) < 1e-9)
            let route = try #require(schedule.planner(at: second).route(from: from, to: to))
            #expect(abs(route.time - answer) < 1e-9 && route.nodes.first == from && route.nodes.last == to)
        }
        #expect(schedule.hierarchiesBuilt == 2, "two bands, one hierarchy each, however many hours")
        #expect(schedule.hour(at: 18 * 3_600 + 10) == 0, "the day wraps round")
    }

    @Test("prepare builds the hierarchies a run's span needs, and only those")
    func prepareBuildsOnlyWhatIsNeeded() {
        let (graph, _) = Self.classedGrid()
        let schedule = TravelTimeSchedule(graph: graph, model: Self.model(), startSecondOfDay: 1 * 3_600, day: .weekend)
        schedule.prepare(from: 0, through: 3_600)
        #expect(schedule.hierarchiesBuilt == 1)
        schedule.prepare(from: 0, through: 7 * 3_600)
        #expect(schedule.hierarchiesBuilt == 2)
    }

    @Test("Bands that leave an hour out or cover one twice are named")
    func coverageProblems() {
        var model = Self.model()
        #expect(model.coverageProblems.isEmpty)
        model.bands[1].fromHour = 8
        #expect(model.coverageProblems == ["no band covers weekday hour 7"])
        model.bands[1].fromHour = 6
        #expect(model.coverageProblems == ["2 bands cover weekday hour 6"])
    }

    @Test("A route timed by another band moves the car in proportion and arrives at the route's time")
    func timelineStretches() throws {
        let (graph, city) = Self.classedGrid()
        let nodes = [city.node(x: 0, y: 0), city.node(x: 1, y: 0), city.node(x: 2, y: 0)]
        let timeline = RouteTimeline(route: Route(time: 100, length: 500, nodes: nodes), departure: 10, graph: graph)
        #expect(timeline.offsets == [0, 50, 100])
        #expect(timeline.arrival == 110)
        #expect(timeline.nextNode(at: 30) == (node: nodes[1], time: 60))
    }

    @Test("Days from 1970 know weekends: 2016-01-02 was a Saturday, 2016-01-04 a Monday")
    func dayKinds() {
        #expect(DayKind(daysFromEpoch: 16_802) == .weekend)
        #expect(DayKind(daysFromEpoch: 16_804) == .weekday)
        #expect(DayKind(daysFromEpoch: 0) == .weekday, "1970-01-01 was a Thursday")
    }
}
