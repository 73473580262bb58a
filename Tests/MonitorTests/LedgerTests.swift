import Testing
import Wire

@testable import Monitor

@Suite("Trips and drivers tables from the bus")
struct LedgerTests {
    var stamper = SequenceStamper(sender: "dispatch-bus")

    mutating func event(_ kind: DispatchEventKind, at seconds: Double, _ fill: (inout DispatchEvent) -> Void) -> Envelope {
        var event = DispatchEvent.with { $0.kind = kind }
        fill(&event)
        return Envelope(.dispatchEvent(event), from: stamper.next(), simTimeMs: Int64(seconds * 1_000))
    }

    @Test("Times are clock times of day, counting on past midnight")
    func clockTimes() {
        #expect(ClockTimeOfDay(startSecondOfDay: 17 * 3_600).format(milliseconds: 3_723_000) == "18:02:03")
        #expect(ClockTimeOfDay(startSecondOfDay: 23.5 * 3_600).format(milliseconds: 3_600_000) == "24:30:00")
    }

    @Test("Riders' features' events (an ETA shared, a fare split after the ride ended) open no row of their own")
    mutating func featureEventsOpenNoRow() {
        var ledger = TripLedger(clock: ClockTimeOfDay(startSecondOfDay: 0))
        var ended: [TripLedger.Trip] = []
        for envelope in [
            event(.requestCreated, at: 1) {
                $0.requestID = "r-1"; $0.riderID = "rider-1"
            },
            event(.etaShared, at: 5) {
                $0.requestID = "r-1"; $0.contacts = ["rider-2"]
            },
            event(.splitInvited, at: 6) {
                $0.requestID = "r-1"; $0.contacts = ["rider-2"]
            },
            event(.tripCompleted, at: 100) {
                $0.requestID = "r-1"; $0.fareCents = 1_000
            },
            event(.fareSplit, at: 100) {
                $0.requestID = "r-1"; $0.fareCents = 1_000
            },
        ] {
            ended += ledger.apply(envelope)
        }
        #expect(ended.map(\.requestID) == ["r-1"] && ended[0].riderID == "rider-1")
        #expect(ledger.openCount == 0, "the split after the ride opened a row that ended as open")
        #expect(ledger.finish(as: "open").isEmpty)
    }

    @Test("A request handed across a shard border is one row, requested when its rider asked at the first shard")
    mutating func handedOver() {
        var ledger = TripLedger(clock: ClockTimeOfDay(startSecondOfDay: 0))
        var ended: [TripLedger.Trip] = []
        for envelope in [
            event(.requestCreated, at: 10) {
                $0.requestID = "r-1"; $0.riderID = "rider-1"
            },
            event(.requestHandedOver, at: 11) {
                $0.requestID = "r-1"; $0.shard = 1
            },
            event(.requestCreated, at: 11.5) {
                $0.requestID = "r-1"; $0.riderID = "rider-1"
            },
            event(.tripCompleted, at: 300) { $0.requestID = "r-1" },
        ] {
            ended += ledger.apply(envelope)
        }
        #expect(ended.count == 1 && ended.first?.requestedMs == 10_000 && ledger.openCount == 0)
    }

    @Test("A request's row: its times, places, fare and driver; riders in the car at once are pooled with each other")
    mutating func trips() {
        var ledger = TripLedger(clock: ClockTimeOfDay(startSecondOfDay: 17 * 3_600))
        var ended: [TripLedger.Trip] = []
        let script: [Envelope] = [
            event(.requestCreated, at: 10) {
                $0.requestID = "r-1"; $0.riderID = "rider-1"; $0.product = .pool; $0.zone = "zone-1"; $0.dropoffZone = "zone-2"
                $0.tripMetres = 1_500; $0.surgeMultiplier = 1.2
            },
            event(.requestCreated, at: 20) {
                $0.requestID = "r-2"; $0.riderID = "rider-2"; $0.product = .pool
            },
            event(.offerSent, at: 21) {
                $0.requestID = "r-1"; $0.driverID = "driver-1"
            },
            event(.offerAccepted, at: 25) {
                $0.requestID = "r-1"; $0.driverID = "driver-1"
            },
            event(.tripStarted, at: 70) {
                $0.requestID = "r-1"; $0.driverID = "driver-1"; $0.pickupWaitS = 60
            },
            event(.tripStarted, at: 90) {
                $0.requestID = "r-2"; $0.driverID = "driver-1"; $0.pickupWaitS = 70
            },
            event(.tripCompleted, at: 200) {
                $0.requestID = "r-1"; $0.driverID = "driver-1"; $0.fareCents = 900; $0.driverEarnsCents = 675; $0.zone = "zone-2"
            },
            event(.requestCreated, at: 210) {
                $0.requestID = "r-3"; $0.riderID = "rider-3"
            },
            event(.requestCancelled, at: 230) {
                $0.requestID = "r-3"; $0.cancelledBy = .rider; $0.reason = "waited, then left"
            },
        ]
        for envelope in script { ended += ledger.apply(envelope) }
        #expect(ended.map(\.requestID) == ["r-1", "r-3"])
        let first = ended[0]
        #expect(first.pooledWith == ["r-2"] && first.offers == 1 && first.pickupWaitSeconds == 60)
        #expect(
            ledger.csvLine(first)
                == "r-1,rider-1,pool,completed,,,17:00:10,17:00:21,1,17:00:25,17:01:10,17:03:20,17:03:20,,,zone-1,,,zone-2,60,130.0,"
                + "1500,900,675,1.2,driver-1,r-2\n")
        #expect(ledger.csvLine(ended[1]).contains(",cancelled,\"waited, then left\",rider,"))
        let rest = ledger.finish(as: "ended by the shutdown")
        #expect(rest.map(\.requestID) == ["r-2"] && rest[0].outcome == "ended by the shutdown" && rest[0].pooledWith == ["r-1"])
    }

    @Test("A driver's row: time in each state, trips, earnings and its odometer")
    mutating func drivers() {
        var ledger = DriverLedger()
        ledger.apply(
            event(.driverStateChanged, at: 0) {
                $0.driverID = "driver-1"; $0.driverState = .idle
            })
        ledger.apply(
            event(.driverStateChanged, at: 100) {
                $0.driverID = "driver-1"; $0.driverState = .enRoute; $0.emptyMetres = 0
            })
        ledger.apply(
            event(.driverStateChanged, at: 160) {
                $0.driverID = "driver-1"; $0.driverState = .onTrip; $0.emptyMetres = 600
            })
        ledger.apply(
            event(.tripCompleted, at: 400) {
                $0.driverID = "driver-1"; $0.driverEarnsCents = 675
            })
        ledger.apply(
            event(.driverStateChanged, at: 400) {
                $0.driverID = "driver-1"; $0.driverState = .idle; $0.emptyMetres = 600; $0.loadedMetres = 2_400
            })
        let rows = ledger.rows(at: 500_000)
        #expect(rows.count == 1)
        #expect(DriverLedger.csvLine(rows[0]) == "driver-1,500,200,0,60,240,1,675,600,2400,0.200\n")
    }
}
