import AppHost
import City
import Scenarios
import SwiftProtobuf
import Testing
import Wire

@Suite("The placed demand a coordinator hands its hosts: read back as written, refused when not this run's")
struct PlacedDemandFileTests {
    let graph = GridCity(width: 1_000, height: 1_000, blockLength: 250, speedKmh: 36).build()
    let rides = [
        TripDemand(time: 0, origin: 0, destination: 24, patienceSeconds: 300),
        TripDemand(time: 12.5, origin: 3, destination: 7, product: .pool, patienceSeconds: nil),
        TripDemand(time: 40, origin: 24, destination: 0, pickupAt: 1_900, patienceSeconds: 600.25),
    ]

    @Test("Every ride comes back as it was: times, nodes, product, a pickup booked ahead, patience or none")
    func roundTrip() throws {
        let bytes = PlacedDemandFile.encode(rides: rides, topologyFingerprint: 42, graph: graph)
        #expect(try PlacedDemandFile.decode(bytes, topologyFingerprint: 42, graph: graph) == rides)
        #expect(
            try PlacedDemandFile.decode(
                PlacedDemandFile.encode(rides: [], topologyFingerprint: 7, graph: graph), topologyFingerprint: 7, graph: graph
            ).isEmpty)
    }

    @Test("A file drawn for another topology, or placed on other roads, is refused")
    func otherRun() throws {
        let bytes = PlacedDemandFile.encode(rides: rides, topologyFingerprint: 42, graph: graph)
        let topology = #expect(throws: PlacedDemandFile.Failure.self) {
            try PlacedDemandFile.decode(bytes, topologyFingerprint: 43, graph: graph)
        }
        #expect(topology?.description.contains("another topology") == true)
        let otherRoads = GridCity(width: 1_000, height: 1_000, blockLength: 250, speedKmh: 50).build()
        let roads = #expect(throws: PlacedDemandFile.Failure.self) {
            try PlacedDemandFile.decode(bytes, topologyFingerprint: 42, graph: otherRoads)
        }
        #expect(roads?.description.contains("other roads") == true)
    }

    @Test("Bytes that are not a placed demand, lists that do not pair up, and rides that make no sense are refused by name")
    func malformed() throws {
        let garbage = #expect(throws: PlacedDemandFile.Failure.self) {
            try PlacedDemandFile.decode([0xFF, 0xFF, 0xFF], topologyFingerprint: 42, graph: graph)
        }
        #expect(garbage?.description.hasPrefix("not a placed demand") == true)
        let good = try PlacedDemand(
            serializedBytes: PlacedDemandFile.encode(rides: rides, topologyFingerprint: 42, graph: graph))
        let cases: [(String, (inout PlacedDemand) -> Void)] = [
            ("3 times but 2 destinations", { $0.destinations.removeLast() }),
            ("3 times but 4 pickup_at", { $0.pickupAt.append(.nan) }),
            ("ride 1: asked for at -1.0 s", { $0.times[1] = -1 }),
            ("ride 2: asked for at inf s", { $0.times[2] = .infinity }),
            ("ride 0: node 25 is not on the roads (25 nodes)", { $0.destinations[0] = 25 }),
            ("ride 1: product 0 is neither UberX nor POOL", { $0.products[1] = .unspecified }),
            ("ride 2: pickup at inf s", { $0.pickupAt[2] = .infinity }),
            ("ride 0: patience of -5.0 s", { $0.patienceSeconds[0] = -5 }),
        ]
        for (reason, breakIt) in cases {
            var broken = good
            breakIt(&broken)
            let refusal = #expect(throws: PlacedDemandFile.Failure.self, "\(reason)") {
                try PlacedDemandFile.decode(try broken.serializedBytes(), topologyFingerprint: 42, graph: graph)
            }
            #expect(refusal?.description == reason)
        }
    }
}
