import AppRuntime
import City
import RIBs
import RiderApp
import Testing
import Wire

func quote(_ product: Wire.Product, cents: Int64) -> Envelope.OneOf_Body {
    .quote(
        Wire.Quote.with {
            $0.quoteID = "quote-\(product.rawValue)"
            $0.riderID = "rider-1"
            $0.product = product
            $0.priceCents = cents
            $0.surgeMultiplier = 1
            $0.pickupEtaS = 120
            $0.tripDurationS = 600
        })
}

func update(_ state: TripState, fare: Int64 = 0) -> Envelope.OneOf_Body {
    .tripUpdate(
        TripUpdate.with {
            $0.requestID = "rider-1"
            $0.state = state
            $0.driverID = "driver-3"
            $0.fareCents = fare
        })
}

/// The names along the tree's deepest, latest branch: the screens a user went through to get here.
func branch(_ tree: RIBTreeSnapshot) -> [String] {
    [tree.name] + (tree.children.last.map(branch) ?? [])
}

@Suite("Rider app: a RIB tree from sign-in to rating, driven by its person")
struct RiderAppTests {
    let profile = RiderProfile(
        id: "rider-1", name: "Ada", requestAt: 100, pickup: grid.positions[0], dropoff: grid.positions[8],
        product: .pool, patience: 300)

    @Test("Signs in, asks for both quotes, picks POOL, confirms, follows the trip, rates, and is finished")
    func fullRide() async {
        let app = RiderApp(profile: profile, features: ["rider.promotions": true], at: 100)
        let asked = await app.start(at: 100)
        #expect(
            asked.messages.count == 2
                && asked.messages.allSatisfy { if case .request(.quoteRequest) = $0 { true } else { false } })
        #expect(branch(await app.tree()) == ["Root", "LoggedIn", "Ride", "Request", "ProductSelection"])
        #expect(await app.tree().children.first?.children.map(\.name) == ["Promotions", "Ride"], "the plugin is on")
        _ = await app.receive(quote(.uberX, cents: 1_500), at: 101)
        let confirmed = await app.receive(quote(.pool, cents: 1_100), at: 101)
        guard case .request(.rideRequest(let ride))? = confirmed.messages.first else {
            Issue.record("no ride request: \(confirmed.messages)")
            return
        }
        #expect(ride.product == .pool && ride.requestID == "rider-1" && ride.quoteID == "quote-2")
        #expect(branch(await app.tree()).last == "Confirmation")
        #expect(confirmed.wakeAt == 401.nextUp, "the person gives up after 300 s of patience")
        _ = await app.receive(.requestReceived(RequestReceived.with { $0.requestID = "rider-1" }), at: 101)
        _ = await app.receive(update(.driverAssigned), at: 150)
        #expect(branch(await app.tree()).suffix(2) == ["Ride", "OnTrip"])
        _ = await app.receive(update(.onTrip), at: 300)
        let rated = await app.receive(update(.completed, fare: 1_100), at: 900)
        #expect(rated.messages.contains { if case .request(.rateTrip(let rating)) = $0 { rating.stars >= 4 } else { false } })
        #expect(rated.finished)
        #expect(await app.health().leaks == 0)
    }

    @Test("Cancels once when the pickup takes longer than the rider's patience; the plugin stays off without its flag")
    func cancelsPastPatience() async {
        let app = RiderApp(profile: profile, at: 100)
        _ = await app.start(at: 100)
        #expect(await app.tree().children.first?.children.map(\.name) == ["Ride"])
        _ = await app.receive(quote(.pool, cents: 1_100), at: 101)
        _ = await app.receive(.requestReceived(RequestReceived.with { $0.requestID = "rider-1" }), at: 101)
        #expect(await app.tick(at: 400).messages.isEmpty)
        let cancelled = await app.tick(at: 402).messages
        #expect(cancelled.count == 1 && cancelled.allSatisfy { if case .request(.cancelRide) = $0 { true } else { false } })
        #expect(await app.tick(at: 410).messages.isEmpty, "asked once; dispatch's update ends the ride")
        let ended = await app.receive(update(.cancelled), at: 411)
        #expect(ended.finished)
    }

    @Test("A trip whose end never arrives (the update was lost) is asked for again, same request id, and the answer ends it")
    func asksAgainWhenSilent() async {
        let app = RiderApp(profile: profile, at: 100)
        _ = await app.start(at: 100)
        _ = await app.receive(quote(.uberX, cents: 1_500), at: 101)
        _ = await app.receive(quote(.pool, cents: 1_100), at: 101)
        _ = await app.receive(.requestReceived(RequestReceived.with { $0.requestID = "rider-1" }), at: 101)
        _ = await app.receive(update(.driverAssigned), at: 150)
        let riding = await app.receive(update(.onTrip), at: 300)
        // The quote said 600 s of trip: asked again past 1.5 times that plus three minutes of silence.
        let due: Double = 300 + 600 * 1.5 + 180
        #expect(riding.wakeAt == due)
        #expect(await app.tick(at: 1_000).messages.isEmpty)
        let asked = await app.tick(at: 1_380).messages
        #expect(
            asked.count == 1
                && asked.allSatisfy {
                    if case .request(.rideRequest(let ride)) = $0 { ride.requestID == "rider-1" } else { false }
                })
        #expect(await app.tick(at: 1_390).messages.isEmpty, "asked once per silence")
        let rated = await app.receive(update(.completed, fare: 1_100), at: 1_391)
        #expect(rated.finished)
    }

    @Test("A refused request ends the ride as rejected, with dispatch's reason")
    func refusedRequest() async {
        let app = RiderApp(profile: profile, at: 100)
        _ = await app.start(at: 100)
        let ended = await app.receive(.error(ErrorReply.with { $0.reason = "pickup is 900 m from the nearest road" }), at: 101)
        #expect(ended.finished)
        #expect(await app.outcome()?.contains("900 m") == true)
    }
}
