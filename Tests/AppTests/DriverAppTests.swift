import AppRuntime
import City
import DriverApp
import Testing
import Wire

/// A 3×3 grid of 200 m blocks: small enough to reason about, real enough to drive on.
let grid = GridCity(width: 400, height: 400, blockLength: 200, speedKmh: 36).build()

func offer(_ id: String, to driver: String, expiresAt seconds: Double) -> Envelope.OneOf_Body {
    .offer(
        Wire.Offer.with {
            $0.offerID = id
            $0.requestID = "rider-1"
            $0.driverID = driver
            $0.expiresAtMs = Int64(seconds * 1000)
        })
}

func leg(
    _ number: UInt32, for driver: String, stop: StopKind, nodes: [UInt32], from depart: Double, to arrive: Double
) -> Envelope.OneOf_Body {
    .driveTo(
        DriveTo.with {
            $0.driverID = driver
            $0.leg = number
            $0.stop = stop
            $0.requestID = "rider-1"
            $0.routeNodes = nodes
            $0.departAtMs = Int64(depart * 1000)
            $0.arriveAtMs = Int64(arrive * 1000)
        })
}

extension AppOutput {
    var bodies: [Envelope.OneOf_Body] { messages.map(\.body) }
}

@Suite("Driver app: a RIB tree driven by its person and by dispatch")
struct DriverAppTests {
    @Test("Goes online at the shift's start, accepts after its response time, drives the legs and reports them done")
    func acceptsAndDrives() async {
        let profile = DriverProfile(id: "driver-0", startNode: 0, shiftStart: 10, acceptance: 1, responseSeconds: 5)
        let app = DriverApp(profile: profile, graph: grid, at: 0)
        #expect(await app.start(at: 0).bodies.isEmpty)
        #expect(await app.tree().deepestScreen.hasPrefix("Offline"))
        let online = await app.tick(at: 10).bodies
        guard case .driverOnline(let said)? = online.first else { Issue.record("no DriverOnline: \(online)"); return }
        #expect(said.driverID == "driver-0")
        let seen = await app.receive(offer("offer-1", to: "driver-0", expiresAt: 40), at: 11)
        #expect(seen.bodies.isEmpty)
        #expect(seen.wakeAt == 16, "the answer is due after the response time")
        #expect(await app.tree().deepestScreen.hasPrefix("Offer rider-1"))
        #expect(await app.tick(at: 13).bodies.isEmpty, "seen at 11: thinking for 5 s")
        let answer = await app.tick(at: 16).bodies
        #expect(
            answer == [
                .acceptOffer(
                    AcceptOffer.with {
                        $0.offerID = "offer-1"; $0.driverID = "driver-0"
                    })
            ])
        _ = await app.receive(leg(1, for: "driver-0", stop: .pickup, nodes: [0, 1], from: 16, to: 36), at: 16)
        #expect(await app.tree().children.first?.children.first?.name == "EnRoute")
        let moving = await app.tick(at: 26).bodies
        #expect(moving.contains { if case .locationUpdate = $0 { true } else { false } })
        let arrived = await app.tick(at: 36).bodies
        #expect(
            arrived.contains(
                .legDone(
                    LegDone.with {
                        $0.driverID = "driver-0"; $0.leg = 1
                    })))
        #expect(await app.position() == grid.positions[1])
    }

    @Test("With no location reports asked for, a moving car sends none and wakes only to arrive; the leg is still reported done")
    func noLocationReports() async {
        let profile = DriverProfile(id: "driver-0", startNode: 0, acceptance: 1, responseSeconds: 0, locationEvery: nil)
        let app = DriverApp(profile: profile, graph: grid, at: 0)
        _ = await app.start(at: 0)
        _ = await app.receive(offer("offer-1", to: "driver-0", expiresAt: 40), at: 1)
        let driving = await app.receive(leg(1, for: "driver-0", stop: .pickup, nodes: [0, 1], from: 1, to: 21), at: 1)
        #expect(driving.wakeAt == 21, "the arrival, not a report 15 s on")
        let moving = await app.tick(at: 11).bodies
        #expect(!moving.contains { if case .locationUpdate = $0 { true } else { false } })
        let arrived = await app.tick(at: 21).bodies
        #expect(!arrived.contains { if case .locationUpdate = $0 { true } else { false } })
        #expect(arrived.contains { if case .legDone = $0 { true } else { false } })
    }

    @Test("The driving screen names each leg's request, also when a leg of the same kind for another request follows")
    func drivingScreenFollowsTheLeg() async {
        let profile = DriverProfile(id: "driver-0", startNode: 0, acceptance: 1, responseSeconds: 0)
        let app = DriverApp(profile: profile, graph: grid, at: 0)
        _ = await app.start(at: 0)
        _ = await app.receive(offer("offer-1", to: "driver-0", expiresAt: 40), at: 1)
        func pickup(_ number: UInt32, of request: String, from depart: Double) -> Envelope.OneOf_Body {
            .driveTo(
                DriveTo.with {
                    $0.driverID = "driver-0"
                    $0.leg = number
                    $0.stop = .pickup
                    $0.requestID = request
                    $0.routeNodes = [0, 1, 2]
                    $0.departAtMs = Int64(depart * 1000)
                    $0.arriveAtMs = Int64((depart + 100) * 1000)
                })
        }
        _ = await app.receive(pickup(1, of: "rider-1", from: 1), at: 1)
        #expect(await app.tree().deepestScreen.hasPrefix("To pickup rider-1"))
        _ = await app.tick(at: 15)
        #expect(await app.tree().deepestScreen.hasPrefix("To pickup rider-1"), "moved on the same leg")
        _ = await app.receive(pickup(2, of: "rider-2", from: 20), at: 20)
        #expect(await app.tree().deepestScreen.hasPrefix("To pickup rider-2"))
        _ = await app.receive(leg(3, for: "driver-0", stop: .dropoff, nodes: [2, 1], from: 30, to: 50), at: 30)
        #expect(await app.tree().deepestScreen.hasPrefix("To dropoff rider-1"))
    }

    @Test(
        "Moving cars report their location on the same instants, multiples of the period from time 0, whenever their legs began (one car's report in every window kept a whole driver process busy in virtual time)"
    )
    func reportsOnSharedInstants() async {
        func reports(_ output: AppOutput) -> Int {
            output.bodies.filter { if case .locationUpdate = $0 { true } else { false } }.count
        }
        var instants: [[Double]] = []
        for (driver, start) in [("driver-0", 3.0), ("driver-1", 11.5)] {
            let profile = DriverProfile(id: driver, startNode: 0, acceptance: 1, responseSeconds: 0, locationEvery: 15)
            let app = DriverApp(profile: profile, graph: grid, at: 0)
            _ = await app.start(at: 0)
            _ = await app.receive(offer("offer-1", to: driver, expiresAt: 40), at: start)
            var output = await app.receive(leg(1, for: driver, stop: .pickup, nodes: [0, 1, 2], from: start, to: 100), at: start)
            var seen: [Double] = []
            var time = start
            while let wake = output.wakeAt, wake < 100 {
                #expect(wake > time, "a wake later than now")
                time = wake
                output = await app.tick(at: time)
                if reports(output) > 0 { seen.append(time) }
                // A tick in the same period (something else woke the app) sends no report of its own.
                #expect(reports(await app.tick(at: time + 7)) == 0, "\(driver) at \(time + 7)")
            }
            instants.append(seen)
        }
        #expect(instants[0] == [15, 30, 45, 60, 75, 90])
        #expect(instants[1] == instants[0])
    }

    @Test(
        "The leg just finished, sent again by dispatch (it never heard LegDone: it was restarted meanwhile), is reported done again"
    )
    func repeatedLegIsReportedAgain() async {
        let profile = DriverProfile(id: "driver-0", startNode: 0, shiftStart: 0, acceptance: 1, responseSeconds: 1)
        let app = DriverApp(profile: profile, graph: grid, at: 0)
        _ = await app.start(at: 0)
        _ = await app.tick(at: 0)
        let drive = leg(1, for: "driver-0", stop: .pickup, nodes: [0, 1], from: 1, to: 21)
        _ = await app.receive(drive, at: 1)
        #expect(
            await app.tick(at: 21).bodies.contains(
                .legDone(
                    LegDone.with {
                        $0.driverID = "driver-0"; $0.leg = 1
                    })))
        let again = await app.receive(drive, at: 30).bodies
        #expect(
            again == [
                .legDone(
                    LegDone.with {
                        $0.driverID = "driver-0"; $0.leg = 1
                    })
            ])
        #expect(await app.tree().children.first?.children.first?.name != "EnRoute", "the leg is not driven twice")
        let older = await app.receive(leg(0, for: "driver-0", stop: .reposition, nodes: [0], from: 0, to: 0), at: 31).bodies
        #expect(older.isEmpty, "an older leg is ignored")
    }
}

@Suite("Location cadence: when a moving car reports")
struct LocationCadenceTests {
    @Test("Periods start at multiples of the period from time 0; the next report is always later than now")
    func periods() throws {
        let cadence = try #require(LocationCadence(every: 15))
        #expect(cadence.period(of: 0) == 0 && cadence.period(of: 14.999) == 0 && cadence.period(of: 15) == 1)
        #expect(
            cadence.nextReport(after: 0) == 15 && cadence.nextReport(after: 14.9) == 15 && cadence.nextReport(after: 15) == 30)
        #expect(cadence.period(of: -1) == -1, "before time 0: the period before")
        #expect(LocationCadence(every: nil) == nil && LocationCadence(every: 0) == nil && LocationCadence(every: -3) == nil)
        #expect(LocationCadence(every: .infinity) == nil)
        // A period that is no whole number of seconds: a wake at the next start is in the next
        // period, so a car woken there reports (a wake at the same instant forever otherwise).
        let fine = try #require(LocationCadence(every: 0.1))
        var time = 0.0
        for _ in 0..<1_000 {
            let next = fine.nextReport(after: time)
            #expect(next > time && fine.period(of: next) == fine.period(of: time) + 1)
            time = next
        }
        #expect(try #require(LocationCadence(every: 0.0001)).periodMs == 1, "at least a millisecond")
    }
}
