import City
import Foundation
import Testing
import Wire

@testable import WebMonitor

/// Bus envelopes made by hand: dispatch's events with contiguous sequence numbers.
struct Bus {
    var dispatch = SequenceStamper(sender: "dispatch-bus")
    var notices = SequenceStamper(sender: "coordinator-notices")

    mutating func event(
        _ kind: DispatchEventKind, at seconds: Double, _ fill: (inout Wire.DispatchEvent) -> Void = { _ in }
    )
        -> Envelope
    {
        var event = Wire.DispatchEvent.with { $0.kind = kind }
        fill(&event)
        return Envelope(.dispatchEvent(event), from: dispatch.next(), simTimeMs: Int64(seconds * 1_000))
    }

    mutating func notice(_ text: String, at seconds: Double) -> Envelope {
        Envelope(.notice(Notice.with { $0.text = text }), from: notices.next(), simTimeMs: Int64(seconds * 1_000))
    }
}

func at(_ lat: Double, _ lon: Double) -> LatLon {
    LatLon.with {
        $0.lat = lat
        $0.lon = lon
    }
}

@Suite("The web monitor's live city, envelope by envelope")
struct LiveCityTests {
    @Test("A page's first frame is full; later frames bring only what changed since its last")
    func framesSince() {
        var city = LiveCity()
        var bus = Bus()
        city.apply(
            bus.event(.driverStateChanged, at: 1) {
                $0.driverID = "d-1"; $0.driverState = .idle; $0.location = at(40.7, -74)
            })
        city.apply(
            bus.event(.driverStateChanged, at: 1) {
                $0.driverID = "d-2"; $0.driverState = .idle; $0.location = at(40.71, -74)
            })
        let first = city.frame(since: 0)
        #expect(first.full && first.drivers.map(\.id) == ["d-1", "d-2"] && first.drivers[0].state == 2)
        city.apply(
            bus.event(.requestCreated, at: 61) {
                $0.requestID = "r-1"; $0.location = at(40.705, -74.001)
            })
        city.apply(
            bus.event(.driverStateChanged, at: 62) {
                $0.driverID = "d-2"; $0.driverState = .offered; $0.location = at(40.71, -74)
            })
        let second = city.frame(since: first.version)
        #expect(!second.full && second.drivers.map(\.id) == ["d-2"] && second.drivers[0].state == 3)
        #expect(second.waiting.map(\.id) == ["r-1"] && second.waiting[0].lat == 40.705)
        #expect(second.minutes.map(\.minute) == [1], "only the minute that changed")
        #expect(second.kpis.requests == 1 && second.kpis.open == 1 && second.kpis.utilisation == 0.5)
        let nothing = city.frame(since: second.version)
        #expect(nothing.drivers.isEmpty && nothing.minutes.isEmpty && nothing.version == second.version)
        #expect(nothing.waiting.isEmpty && nothing.waitingEnded.isEmpty, "a request still waiting is not sent again")
        city.apply(
            bus.event(.offerAccepted, at: 70) {
                $0.requestID = "r-1"; $0.driverID = "d-2"
            })
        let matched = city.frame(since: second.version)
        #expect(matched.waiting.isEmpty && matched.waitingEnded == ["r-1"])
        #expect(city.frame(since: 0).waiting.isEmpty && city.frame(since: 0).waitingEnded.isEmpty)
    }

    @Test("A driver's leg goes to pages with its nodes and times, and ends when it stops, arrives or the driver goes offline")
    func legs() {
        var city = LiveCity()
        var bus = Bus()
        city.apply(
            bus.event(.driverStateChanged, at: 1) {
                $0.driverID = "d-1"; $0.driverState = .enRoute; $0.location = at(40.7, -74)
            })
        let before = city.version
        city.apply(
            bus.event(.legStarted, at: 2) {
                $0.driverID = "d-1"; $0.routeNodes = [4, 5, 6]; $0.departAtMs = 2_000; $0.arriveAtMs = 62_500
            })
        let started = city.frame(since: before)
        #expect(started.drivers.isEmpty, "a new leg is not a change of the driver's dot")
        #expect(started.legs == [LiveFrame.Leg(id: "d-1", nodes: [4, 5, 6], depart: 2, arrive: 62.5)])
        city.apply(
            bus.event(.driverStateChanged, at: 30) {
                $0.driverID = "d-1"; $0.driverState = .onTrip; $0.location = at(40.71, -74)
            })
        let moved = city.frame(since: started.version)
        #expect(moved.drivers.map(\.id) == ["d-1"] && moved.legs.isEmpty && moved.legsEnded.isEmpty, "the leg is not sent again")
        #expect(city.frame(since: 0).legs.count == 1, "a state change before the leg's arrival keeps it")
        city.apply(bus.event(.legStopped, at: 31) { $0.driverID = "d-1" })
        #expect(city.frame(since: moved.version).legsEnded == ["d-1"] && city.frame(since: 0).legs.isEmpty, "a stopped leg")
        city.apply(
            bus.event(.legStarted, at: 40) {
                $0.driverID = "d-1"; $0.routeNodes = [6, 7]; $0.departAtMs = 40_000; $0.arriveAtMs = 50_000
            })
        city.apply(
            bus.event(.driverStateChanged, at: 50) {
                $0.driverID = "d-1"; $0.driverState = .idle; $0.location = at(40.72, -74)
            })
        let arrived = city.frame(since: 0)
        #expect(
            arrived.legs.isEmpty && arrived.drivers.first?.lat == 40.72, "after its arrival the driver is where the event says")
    }

    @Test("A frame's drivers, requests and legs go as arrays of integers (microdegrees, milliseconds) and come back the same")
    func compactRows() throws {
        var city = LiveCity()
        var bus = Bus()
        city.apply(
            bus.event(.driverStateChanged, at: 1) {
                $0.driverID = "d-1"; $0.driverState = .enRoute; $0.location = at(40.712_345, -74.006_789)
            })
        city.apply(
            bus.event(.requestCreated, at: 2) {
                $0.requestID = "r-1"; $0.location = at(40.7, -73.99)
            })
        city.apply(
            bus.event(.legStarted, at: 3) {
                $0.driverID = "d-1"; $0.routeNodes = [7, 8]; $0.departAtMs = 3_000; $0.arriveAtMs = 64_250
            })
        let frame = city.frame(since: 0)
        let json = String(decoding: try JSONEncoder().encode(frame), as: UTF8.self)
        #expect(json.contains(#"["d-1",40712345,-74006789,4]"#) && json.contains(#"["r-1",40700000,-73990000]"#))
        #expect(json.contains(#"["d-1",3000,64250,[7,8]]"#))
        #expect(try JSONDecoder().decode(LiveFrame.self, from: Data(json.utf8)) == frame)
    }

    /// Copying an empty `Deque` into an array writes the standard library's shared empty-array
    /// storage, which ThreadSanitizer reported when two tests made a full frame at once.
    @Test("Full frames of a city without notices, made on two threads at once, share nothing")
    func fullFramesAtOnce() async {
        let city = LiveCity()
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                group.addTask { (0..<200).reduce(0) { total, _ in total + city.frame(since: 0).notices.count } }
            }
            return await group.reduce(0, +)
        }
        #expect(counts == 0)
    }

    @Test("The totals of a frame follow every change, however many pages ask at the same version")
    func totalsPerVersion() {
        var city = LiveCity()
        var bus = Bus()
        for (index, wait) in [UInt32(40), 10, 300, 25].enumerated() {
            city.apply(bus.event(.requestCreated, at: Double(index)) { $0.requestID = "r-\(index)" })
            city.apply(
                bus.event(.tripStarted, at: Double(index) + 0.5) {
                    $0.requestID = "r-\(index)"; $0.pickupWaitS = wait
                })
            let frame = city.frame(since: 0)
            #expect(frame.kpis.requests == index + 1 && city.frame(since: frame.version).kpis == frame.kpis)
        }
        let kpis = city.frame(since: 0).kpis
        #expect(kpis.pickupWaitP50 == 25 && kpis.pickupWaitP95 == 300 && kpis.open == 4)
    }

    @Test("Pickups and drop-offs flash where they happen; minutes count requests, matches, completions, waits")
    func flashesAndMinutes() {
        var city = LiveCity()
        var bus = Bus()
        city.apply(
            bus.event(.requestCreated, at: 10) {
                $0.requestID = "r-1"; $0.location = at(40.70, -74.00)
            })
        city.apply(
            bus.event(.offerAccepted, at: 20) {
                $0.requestID = "r-1"; $0.driverID = "d-1"
            })
        let before = city.version
        city.apply(
            bus.event(.tripStarted, at: 70) {
                $0.requestID = "r-1"; $0.pickupWaitS = 60
            })
        city.apply(
            bus.event(.tripCompleted, at: 130) {
                $0.requestID = "r-1"; $0.location = at(40.72, -73.99); $0.fareCents = 900
            })
        let frame = city.frame(since: before)
        #expect(
            frame.flashes == [.init(kind: "pickup", lat: 40.70, lon: -74.00), .init(kind: "dropoff", lat: 40.72, lon: -73.99)])
        #expect(frame.waiting.isEmpty)
        let minutes = city.frame(since: 0).minutes
        #expect(minutes.map(\.minute) == [0, 1, 2])
        #expect(
            minutes[0].requests == 1 && minutes[0].matched == 1 && minutes[1].pickupWaitP50 == 60 && minutes[2].completed == 1)
        #expect(city.frame(since: 0).kpis.completed == 1)
    }

    @Test("A request handed across a shard border counts once, in the minute its rider asked in")
    func handedOver() {
        var city = LiveCity()
        var bus = Bus()
        city.apply(bus.event(.requestCreated, at: 59) { $0.requestID = "r-1" })
        city.apply(
            bus.event(.requestHandedOver, at: 60) {
                $0.requestID = "r-1"; $0.shard = 1
            })
        city.apply(bus.event(.requestCreated, at: 61) { $0.requestID = "r-1" })
        let frame = city.frame(since: 0)
        #expect(frame.kpis.requests == 1 && frame.kpis.open == 1)
        #expect(frame.minutes.first?.minute == 0 && frame.minutes.reduce(0) { $0 + $1.requests } == 1)
    }

    @Test("A repeated event (a restored dispatch publishes its last again) changes nothing; notices and the summary reach pages")
    func repeatsNoticesSummary() {
        var city = LiveCity()
        var bus = Bus()
        let created = bus.event(.requestCreated, at: 10) {
            $0.requestID = "r-1"; $0.location = at(40.70, -74.00)
        }
        city.apply(created)
        let version = city.version
        city.apply(created)
        #expect(city.version == version && city.frame(since: 0).kpis.requests == 1)
        city.apply(bus.notice("killed drivers-0", at: 30))
        #expect(city.frame(since: version).notices == [.init(simSeconds: 30, text: "killed drivers-0")])
        city.finish(summary: #"{"outcome":"completed"}"#)
        #expect(city.frame(since: version).summary == #"{"outcome":"completed"}"#)
    }

    @Test("The map draws every street once and boxes each surge zone")
    func map() {
        let graph = GridCity(width: 1_000, height: 1_000, blockLength: 250, speedKmh: 36).build()
        let map = CityMap(graph: graph, zoneSize: 500)
        #expect(map.nodes.count == graph.nodeCount * 2)
        #expect(map.streets.count == 2 * 40, "a 5 × 5 grid has 40 two-way blocks")
        #expect(map.bounds[0] < map.bounds[2] && map.bounds[1] < map.bounds[3])
        #expect(!map.zones.isEmpty && map.zones.allSatisfy { $0.name.hasPrefix("zone-") && $0.box[0] <= $0.box[2] })
    }

    @Test(
        "A snapshot in chunks shows every chunk's drivers and requests (each chunk wiped the ones before it), with the bus events that came before it and after its sequence"
    )
    func snapshotInChunks() {
        var city = LiveCity()
        var bus = Bus()
        for _ in 0..<3 { _ = bus.event(.driverStateChanged, at: 1) }
        let snapshotAt = bus.dispatch.lastSequence
        // On the bus before the snapshot: d-2 takes a ride (after the snapshot's sequence).
        city.apply(
            bus.event(.driverStateChanged, at: 2) {
                $0.driverID = "d-2"; $0.driverState = .enRoute
            })
        let driver = { (id: String, state: Wire.DriverState) in
            Wire.DispatchEvent.with {
                $0.kind = .driverStateChanged; $0.driverID = id; $0.driverState = state
            }
        }
        let first = SnapshotChunk.with {
            $0.sequenceAt = snapshotAt
            $0.state = [driver("d-1", .idle), driver("d-2", .idle)]
        }
        let last = SnapshotChunk.with {
            $0.sequenceAt = snapshotAt
            $0.state = [
                driver("d-3", .idle),
                Wire.DispatchEvent.with {
                    $0.kind = .requestCreated; $0.requestID = "r-1"; $0.tripState = .matching
                },
            ]
            $0.last = true
            $0.totals = [
                EventCount.with {
                    $0.kind = .requestCreated; $0.count = 1
                }
            ]
        }
        city.apply(chunk: first)
        city.apply(chunk: last)
        let frame = city.frame(since: 0)
        #expect(frame.drivers.map(\.id) == ["d-1", "d-2", "d-3"])
        #expect(city.board.drivers == ["d-1": .idle, "d-2": .enRoute, "d-3": .idle])
        #expect(frame.kpis.requests == 1 && frame.kpis.open == 1)
    }
}
