import City
import Foundation
import Scenarios
import SwiftProtobuf
import Wire

/// A run's rides as one process drew and placed them, for the others to read instead of drawing
/// them again (``Wire/PlacedDemand``): the coordinator writes it once, every rider and driver
/// process it starts reads it (`--demand FILE`).
///
/// Drawing metro's demand took each host about 0.35 CPU seconds and whole Manhattan's day about
/// 1.8, the same work in every process, all of them at once on the machine's cores before the
/// first window (PERFORMANCE.md).
public enum PlacedDemandFile {
    /// Why bytes are not the rides of this run.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The rides (``Scenario/trips``) as bytes, marked with what they were drawn for: the
    /// topology's fingerprint (the caller's: the same function of the topology in every process)
    /// and the roads' (``HierarchyFile/fingerprint(of:)``).
    public static func encode(rides: [TripDemand], topologyFingerprint: UInt32, graph: RoadGraph) -> [UInt8] {
        let placed = PlacedDemand.with { file in
            file.topologyFingerprint = topologyFingerprint
            file.graphFingerprint = HierarchyFile.fingerprint(of: graph)
            file.times = rides.map(\.time)
            file.origins = rides.map { UInt32($0.origin) }
            file.destinations = rides.map { UInt32($0.destination) }
            file.products = rides.map { $0.product == .pool ? .pool : .uberX }
            file.pickupAt = rides.map { $0.pickupAt ?? .nan }
            file.patienceSeconds = rides.map { $0.patienceSeconds ?? .nan }
        }
        // Every field is set and proto3 has no required ones: encoding cannot fail.
        return try! placed.serializedBytes()
    }

    /// The rides in `bytes`, if they were drawn for this topology and these roads and every one
    /// makes sense on them; else why not, naming the ride.
    public static func decode(_ bytes: [UInt8], topologyFingerprint: UInt32, graph: RoadGraph) throws(Failure) -> [TripDemand] {
        let placed: PlacedDemand
        do { placed = try PlacedDemand(serializedBytes: bytes) } catch { throw Failure("not a placed demand: \(error)") }
        guard placed.topologyFingerprint == topologyFingerprint else {
            throw Failure("drawn for another topology (or another version of this one)")
        }
        guard placed.graphFingerprint == HierarchyFile.fingerprint(of: graph) else {
            throw Failure("placed on other roads than the topology's city")
        }
        let count = placed.times.count
        let lists = [
            ("origins", placed.origins.count), ("destinations", placed.destinations.count), ("products", placed.products.count),
            ("pickup_at", placed.pickupAt.count), ("patience_seconds", placed.patienceSeconds.count),
        ]
        if let (name, length) = lists.first(where: { $0.1 != count }) {
            throw Failure("\(count) times but \(length) \(name)")
        }
        var rides: [TripDemand] = []
        rides.reserveCapacity(count)
        for index in 0..<count {
            rides.append(try ride(index, of: placed, nodes: graph.nodeCount))
        }
        return rides
    }

    private static func ride(_ index: Int, of placed: PlacedDemand, nodes: Int) throws(Failure) -> TripDemand {
        func refuse(_ reason: String) -> Failure { Failure("ride \(index): \(reason)") }
        let time = placed.times[index]
        guard time.isFinite, time >= 0 else { throw refuse("asked for at \(time) s") }
        let (origin, destination) = (Int(placed.origins[index]), Int(placed.destinations[index]))
        guard origin < nodes, destination < nodes else {
            throw refuse("node \(max(origin, destination)) is not on the roads (\(nodes) nodes)")
        }
        guard placed.products[index] == .uberX || placed.products[index] == .pool else {
            throw refuse("product \(placed.products[index].rawValue) is neither UberX nor POOL")
        }
        let pickupAt = placed.pickupAt[index]
        guard pickupAt.isNaN || pickupAt.isFinite else { throw refuse("pickup at \(pickupAt) s") }
        let patience = placed.patienceSeconds[index]
        guard patience.isNaN || (patience.isFinite && patience >= 0) else { throw refuse("patience of \(patience) s") }
        var ride = TripDemand(
            time: time, origin: origin, destination: destination,
            pickupAt: pickupAt.isNaN ? nil : pickupAt, patienceSeconds: patience.isNaN ? nil : patience)
        if placed.products[index] == .pool { ride.product = .pool }
        return ride
    }
}
