import AppHost
import Testing
import Wire

@Suite("Which shard a host's apps talk to")
struct ShardRoutingTests {
    /// West of longitude 0 is shard 0, east shard 1.
    static func halves() -> ShardRouting { ShardRouting(shards: 2) { $0.lon < 0 ? 0 : 1 } }

    static func at(_ lon: Double) -> LatLon {
        LatLon.with {
            $0.lat = 40; $0.lon = lon
        }
    }

    @Test(
        "A ride goes where its pickup is and its later messages follow it; a driver follows where it came online, then its handovers"
    )
    func routes() {
        var routing = Self.halves()
        #expect(routing.shard(for: .quoteRequest(QuoteRequest.with { $0.pickup = Self.at(1) }), of: "req-1") == 1)
        #expect(routing.shard(for: .rideRequest(Wire.RideRequest.with { $0.pickup = Self.at(1) }), of: "req-1") == 1)
        #expect(routing.shard(for: .cancelRide(CancelRide()), of: "req-1") == 1)
        #expect(routing.shard(for: .driverOnline(DriverOnline.with { $0.location = Self.at(-1) }), of: "d-1") == 0)
        #expect(routing.shard(for: .legDone(LegDone()), of: "d-1") == 0)
        routing.handOver("d-1", to: 1)
        #expect(routing.shard(for: .locationUpdate(LocationUpdate()), of: "d-1") == 1)
        routing.handOver("d-1", to: 7)
        #expect(routing.shard(of: "d-1") == 1, "a shard that does not exist is no handover")
        routing.forget("req-1")
        #expect(routing.shard(of: "req-1") == 0)
    }

    @Test("One dispatch: everything to shard 0, whatever the map would say")
    func single() {
        var routing = ShardRouting.single
        #expect(routing.shard(for: .rideRequest(Wire.RideRequest.with { $0.pickup = Self.at(5) }), of: "req-1") == 0)
        var clamped = ShardRouting(shards: 2) { _ in 9 }
        #expect(clamped.shard(for: .driverOnline(DriverOnline()), of: "d-1") == 1, "a map's answer out of range is clamped")
    }
}
