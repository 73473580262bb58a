import AppRuntime
import City
import RIBs
import RiderApp
import Testing
import Wire

/// The bodies an app sent, requests and messages alike.
func sent(_ output: AppOutput) -> [Envelope.OneOf_Body] { output.messages.map(\.body) }

/// Every screen the tree shows, one per line.
func screens(_ tree: RIBTreeSnapshot) -> String {
    ([tree.screen].compactMap { $0 } + tree.children.map(screens)).joined(separator: "\n")
}

/// The names of the RIBs attached under the named RIB, first found depth first.
func children(of name: String, in tree: RIBTreeSnapshot) -> [String]? {
    if tree.name == name { return tree.children.map(\.name) }
    return tree.children.lazy.compactMap { children(of: name, in: $0) }.first
}

@Suite("Rider app plugins: Share ETA, Split Fare, their inboxes, and the kill switch")
struct RiderPluginTests {
    /// Rider 50 of a city of 200 riders.
    let profile = RiderProfile(
        id: "rider-50", name: "Rider 50", requestAt: 100, pickup: grid.positions[0], dropoff: grid.positions[8],
        product: .uberX, patience: 600, seed: 77, number: 50, cityRiders: 200)
    static let both = ["rider.share_eta": true, "rider.split_fare": true]

    func update(_ state: TripState, fare: Int64 = 0) -> Envelope.OneOf_Body {
        .tripUpdate(
            TripUpdate.with {
                $0.requestID = "rider-50"
                $0.state = state
                $0.driverID = "driver-3"
                $0.fareCents = fare
            })
    }

    /// Starts the app and takes it to a driver on the way; returns what the app sent then.
    func assigned(_ app: RiderApp) async -> AppOutput {
        _ = await app.start(at: 100)
        for product in [Wire.Product.uberX, .pool] {
            _ = await app.receive(
                .quote(
                    Wire.Quote.with {
                        $0.quoteID = "q\(product.rawValue)"; $0.riderID = "rider-50"; $0.product = product; $0.priceCents = 1_000
                        $0.tripDurationS = 600
                    }), at: 101)
        }
        _ = await app.receive(.requestReceived(RequestReceived.with { $0.requestID = "rider-50" }), at: 101)
        return await app.receive(update(.driverAssigned), at: 150)
    }

    @Test("On the trip the person shares the ETA and invites contacts who ride in the city, the closest first")
    func shareAndInvite() async throws {
        let app = RiderApp(profile: profile, features: Self.both, at: 100)
        let out = await assigned(app)
        #expect(children(of: "OnTrip", in: await app.tree()) == ["ShareETA", "SplitFare"])
        #expect(children(of: "LoggedIn", in: await app.tree()) == ["SharedRides", "SplitInbox", "Ride"])
        let shares = sent(out).compactMap { if case .shareEta(let s) = $0 { s } else { nil } }
        let invites = sent(out).compactMap { if case .splitFareInvite(let i) = $0 { i } else { nil } }
        let share = try #require(shares.first)
        let invite = try #require(invites.first)
        #expect(share.requestID == "rider-50" && share.riderID == "rider-50" && !share.stop)
        #expect((1...2).contains(share.recipientIds.count) && (1...2).contains(invite.inviteeIds.count))
        for rider in share.recipientIds + invite.inviteeIds {
            let number = try #require(Int(rider.dropFirst("rider-".count)))
            #expect(abs(number - 50) <= 40 && number != 50 && number < 200, "\(rider) is a friend among the city's riders")
        }
        #expect(shares.count == 1 && invites.count == 1, "each once")
        #expect(sent(await app.tick(at: 160)).allSatisfy { if case .shareEta = $0 { false } else { true } })
    }

    @Test("The same rider picks the same contacts every time")
    func sameChoices() async {
        let first = sent(await assigned(RiderApp(profile: profile, features: Self.both, at: 100)))
        let second = sent(await assigned(RiderApp(profile: profile, features: Self.both, at: 100)))
        #expect(first == second)
    }

    @Test("An inviter's app stays open until the split arrives, shows its share, and then finishes")
    func inviterSeesSplit() async {
        let app = RiderApp(profile: profile, features: Self.both, at: 100)
        let out = await assigned(app)
        guard
            case .splitFareInvite(let invite)? = sent(out).first(where: { if case .splitFareInvite = $0 { true } else { false } })
        else {
            Issue.record("no invitation")
            return
        }
        _ = await app.receive(update(.onTrip), at: 300)
        let done = await app.receive(update(.completed, fare: 1_001), at: 900)
        #expect(!done.finished, "waits for the split")
        #expect(done.wakeAt == 960, "for at most a minute")
        let split = await app.receive(
            .fareSplit(
                FareSplit.with {
                    $0.requestID = "rider-50"; $0.riderID = "rider-50"; $0.fareCents = 1_001
                    $0.shares = [
                        FareShare.with {
                            $0.riderID = "rider-50"; $0.cents = 501
                        },
                        FareShare.with {
                            $0.riderID = invite.inviteeIds[0]; $0.cents = 500
                        },
                    ]
                }), at: 901)
        #expect(split.finished)
        #expect(screens(await app.tree()).contains("Your share $5.01 of $10.01, split 2 ways"))
    }

    @Test("An invitee answers after thinking it over, once; a lapsed invitation leaves the inbox")
    func inviteeAnswers() async throws {
        let app = RiderApp(profile: profile, features: Self.both, at: 100)
        _ = await assigned(app)
        let invitation = SplitInvitation.with {
            $0.invitationID = "split-7"; $0.inviteeID = "rider-50"; $0.fromRiderID = "rider-49"; $0.requestID = "rider-49"
            $0.estimatedFareCents = 2_000; $0.expiresAtMs = 400_000
        }
        let received = await app.receive(.splitInvitation(invitation), at: 200)
        let answerAt = try #require(received.wakeAt)
        #expect((205...290).contains(answerAt))
        let answered = await app.tick(at: answerAt)
        let answers = sent(answered).compactMap { if case .splitAnswer(let a) = $0 { a } else { nil } }
        #expect(answers.count == 1 && answers.first?.invitationID == "split-7" && answers.first?.riderID == "rider-50")
        #expect(sent(await app.tick(at: answerAt + 1)).allSatisfy { if case .splitAnswer = $0 { false } else { true } })
        // A refused answer (it came too late) is the inbox's business: the ride goes on.
        _ = await app.receive(
            .error(
                ErrorReply.with {
                    $0.code = .expired; $0.reason = "invitation split-7 expired"
                }),
            answering: .splitAnswer(answers[0]), at: answerAt + 2)
        #expect(await app.outcome() == nil)
        let late = SplitInvitation.with {
            $0.invitationID = "split-8"; $0.inviteeID = "rider-50"; $0.fromRiderID = "rider-48"; $0.expiresAtMs = 301_000
        }
        _ = await app.receive(.splitInvitation(late), at: 300)
        _ = await app.tick(at: 302)
        #expect(!(screens(await app.tree()).contains("rider-48")), "the lapsed invitation left the screen")
    }

    @Test("A shared ride shows in the recipient's app and counts down")
    func recipientSeesShare() async {
        let app = RiderApp(profile: profile, features: Self.both, at: 100)
        _ = await assigned(app)
        _ = await app.receive(
            .sharedEta(
                SharedEta.with {
                    $0.recipientID = "rider-50"; $0.fromRiderID = "rider-51"; $0.requestID = "rider-51";
                    $0.state = .driverAssigned
                    $0.arriveAtMs = 400_000
                }), at: 200)
        #expect(screens(await app.tree()).contains("rider-51's car is on the way · pickup in 200 s"))
        _ = await app.tick(at: 300)
        #expect(screens(await app.tree()).contains("pickup in 100 s"))
    }

    @Test(
        "Kill switch: a plugin that fails when built or at work is switched off, reported once, and the ride completes",
        arguments: [PluginFaults.Point.atBuild, .atWork])
    func killSwitch(point: PluginFaults.Point) async {
        let app = RiderApp(
            profile: profile, features: Self.both, faults: PluginFaults(["rider.split_fare": point]), at: 100)
        let out = await assigned(app)
        #expect(out.switchedOff == ["rider.split_fare"])
        #expect(children(of: "OnTrip", in: await app.tree()) == ["ShareETA"], "switched off and detached")
        #expect(children(of: "LoggedIn", in: await app.tree()) == ["SharedRides", "Ride"], "its inbox too")
        #expect(sent(out).allSatisfy { if case .splitFareInvite = $0 { false } else { true } })
        #expect(sent(out).contains { if case .shareEta = $0 { true } else { false } }, "the other plugin goes on")
        let later = await app.receive(update(.onTrip), at: 300)
        #expect(later.switchedOff.isEmpty, "reported once")
        let done = await app.receive(update(.completed, fare: 1_000), at: 900)
        #expect(done.finished, "the core flow completes without the failed plugin")
        #expect(await app.health().leaks == 0)
    }

    @Test("Features are drawn per rider from the seed: the shares hold, the same rider gets the same draw")
    func featureDraw() {
        let settings = ["rider.share_eta": (share: 0.3, failRate: 0.0), "rider.split_fare": (share: 1.0, failRate: 0.5)]
        let draws = (0..<2_000).map { RiderFeatures.draw(settings, rider: $0, seed: 9) }
        let sharing = draws.filter { $0.flags["rider.share_eta"] == true }.count
        let failing = draws.filter { $0.faults.failing["rider.split_fare"] != nil }.count
        #expect((500...700).contains(sharing), "about 30 % share ETAs: \(sharing)")
        #expect((900...1_100).contains(failing), "about half the splits fail: \(failing)")
        #expect(draws.allSatisfy { $0.flags["rider.split_fare"] == true && $0.faults.failing["rider.share_eta"] == nil })
        #expect(RiderFeatures.draw(settings, rider: 17, seed: 9) == draws[17])
        let alone = RiderFeatures.draw(["rider.share_eta": (share: 0.3, failRate: 0.0)], rider: 17, seed: 9)
        #expect(alone.flags["rider.share_eta"] == draws[17].flags["rider.share_eta"], "adding a feature changes no other's draw")
    }
}

@Suite("Rider app plugins: invitations without the inbox")
struct InvitationWithoutInboxTests {
    @Test("An app without Split Fare is not woken for invitations it cannot see, and they lapse")
    func noInboxNoWakeUps() async {
        let profile = RiderProfile(
            id: "rider-50", name: "Rider 50", requestAt: 100, pickup: grid.positions[0], dropoff: grid.positions[8],
            patience: 600, seed: 77, number: 50, cityRiders: 200)
        for features in [[:], ["rider.split_fare": true], ["rider.split_fare": true, "rider.share_eta": true]] {
            let faults = features.isEmpty ? PluginFaults() : PluginFaults(["rider.split_fare": .atBuild])
            let app = RiderApp(profile: profile, features: features, faults: faults, at: 100)
            _ = await app.start(at: 100)
            let invitation = SplitInvitation.with {
                $0.invitationID = "split-1"; $0.inviteeID = "rider-50"; $0.fromRiderID = "rider-49"; $0.expiresAtMs = 300_000
            }
            let received = await app.receive(.splitInvitation(invitation), at: 150)
            #expect(received.wakeAt.map { $0 > 150.5 } ?? true, "no wake-up for the invitation: \(features)")
            let later = await app.tick(at: 400)
            #expect(later.wakeAt.map { $0 > 400.5 } ?? true, "not after it lapsed either: \(features)")
        }
    }
}
