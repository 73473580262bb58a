import City
import RideDispatch
import Testing
import Wire

@testable import DispatchService

/// Found in review: offers were named from the count of open offers, and a decline removed one,
/// so the next offer took the name of one still open and overwrote it — that driver's accept was
/// refused and its offer expired.
@Suite("Dispatch desk: offer names")
struct OfferNamingTests {
    @Test("Two offers open, one declined, a third made: the other is still accepted under its own name")
    func namesNeverRepeat() {
        var fixture = DeskFixture()
        fixture.openSessions()
        for (name, x, y) in [("d-1", 0, 0), ("d-2", 8, 8), ("d-3", 0, 2)] {
            _ = fixture.driver(
                .driverOnline(
                    DriverOnline.with {
                        $0.driverID = name; $0.location = fixture.at(x, y)
                    }), at: 1)
        }
        func offers(_ out: [Outgoing]) -> [Wire.Offer] {
            bodies(out, to: DeskFixture.driversPeer).compactMap { if case .offer(let offer) = $0 { offer } else { nil } }
        }
        func request(_ id: Int, from pickup: (Int, Int), to dropoff: (Int, Int)) -> [Wire.Offer] {
            let ride = Wire.RideRequest.with {
                $0.requestID = "req-\(id)"
                $0.riderID = "r-\(id)"
                $0.pickup = fixture.at(pickup.0, pickup.1)
                $0.dropoff = fixture.at(dropoff.0, dropoff.1)
            }
            return offers(fixture.rider(.rideRequest(ride), at: 2))
        }
        let first = request(1, from: (0, 0), to: (4, 0))
        let second = request(2, from: (8, 8), to: (4, 8))
        guard let toFirst = first.first, let toSecond = second.first else {
            Issue.record("two offers expected, got \(first) and \(second)")
            return
        }
        #expect(toFirst.driverID == "d-1" && toSecond.driverID == "d-2")
        #expect(toFirst.offerID != toSecond.offerID)

        let declined = fixture.driver(
            .declineOffer(
                DeclineOffer.with {
                    $0.offerID = toFirst.offerID; $0.driverID = "d-1"
                }), at: 3)
        let third = offers(declined + fixture.desk.tick(at: 4))
        guard let again = third.first else {
            Issue.record("req-1 was not offered again after the decline")
            return
        }
        #expect(again.requestID == "req-1" && again.driverID == "d-3")
        #expect(![toFirst.offerID, toSecond.offerID].contains(again.offerID), "a new offer gets a name never used before")

        let accepted = fixture.driver(
            .acceptOffer(
                AcceptOffer.with {
                    $0.offerID = toSecond.offerID; $0.driverID = "d-2"
                }), at: 5)
        let refusals = bodies(accepted, to: DeskFixture.driversPeer).filter { if case .error = $0 { true } else { false } }
        #expect(refusals.isEmpty, "d-2's accept of its own offer was refused: \(refusals)")
        #expect(acks(accepted, to: DeskFixture.driversPeer).count == 1)
        #expect(published(accepted).contains(.offerAccepted))
        #expect(fixture.desk.engine.state(of: DriverID(2)) != .offered)
    }
}
