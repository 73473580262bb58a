import Testing
import Wire

@testable import AppHost

@Suite("A host's location reports of one instant, sent together")
struct HeldLocationsTests {
    private func update(_ driver: String) -> LocationUpdate {
        LocationUpdate.with {
            $0.driverID = driver
            $0.location = LatLon.with {
                $0.lat = 40.7; $0.lon = -74
            }
        }
    }

    private func reports(_ drivers: [String]) -> Envelope.OneOf_Body {
        .locationReports(LocationReports.with { $0.updates = drivers.map(update) })
    }

    @Test(
        "Reports of one instant go to each shard in one message, shards in order; a lone one is a plain update; a new instant sends the held ones first"
    )
    func togetherByInstant() {
        var held = HeldLocations()
        #expect(held.hold(update("d-1"), for: 1, at: 15).isEmpty)
        #expect(held.hold(update("d-2"), for: 0, at: 15).isEmpty)
        #expect(held.hold(update("d-3"), for: 1, at: 15).isEmpty)
        #expect(!held.isEmpty)
        let earlier = held.hold(update("d-4"), for: 0, at: 15.25)
        #expect(
            earlier == [
                .init(shard: 0, body: .locationUpdate(update("d-2")), time: 15),
                .init(shard: 1, body: reports(["d-1", "d-3"]), time: 15),
            ])
        #expect(held.hold(update("d-5"), for: 0, at: 15.25).isEmpty)
        #expect(held.release() == [.init(shard: 0, body: reports(["d-4", "d-5"]), time: 15.25)])
        #expect(held.isEmpty && held.release().isEmpty)
    }
}
