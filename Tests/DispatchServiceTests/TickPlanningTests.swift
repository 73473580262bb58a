import Foundation
import RideDispatch
import Testing
import Wire

@testable import DispatchService

/// One desk ticked on every whole second, as in wall-clock time and before virtual time planned
/// its ticks, and one ticked only when ``DispatchDesk/nextTickDue`` says something is due, both
/// given the same inputs: what each sends, and when.
private struct TickedPair {
    var every = DeskFixture(settings: TickedPair.settings)
    var planned = DeskFixture(settings: TickedPair.settings)
    /// Ticks of the desk on every second that is past; the planned desk's floor, in milliseconds.
    var everyNextMs: Int64 = 0
    var floorMs: Int64 = 0
    var sentByEvery: [String] = []
    var sentByPlanned: [String] = []
    var plannedTicks = 0

    static var settings: DispatchDesk.Settings {
        var settings = DispatchDesk.Settings()
        // A session silent for 300 simulated seconds times out; a leg open 60 s past its
        // arrival is sent again.
        settings.speed = 60
        return settings
    }

    /// Runs both desks' ticks due before `timeMs` (and at it: a tick at an input's instant comes first).
    mutating func ticks(through timeMs: Int64) {
        while everyNextMs <= timeMs {
            record(every.desk.tick(at: Double(everyNextMs) / 1000), at: everyNextMs, into: &sentByEvery)
            everyNextMs += 1000
        }
        while true {
            let tick = VirtualDispatch.plannedTick(floorMs: floorMs, periodMs: 1000, due: planned.desk.nextTickDue)
            guard tick <= timeMs else { break }
            record(planned.desk.tick(at: Double(tick) / 1000), at: tick, into: &sentByPlanned)
            floorMs = tick + 1
            plannedTicks += 1
        }
    }

    /// The same input to both at `timeMs`, after their ticks; what the every-second desk sent.
    mutating func input(at timeMs: Int64, _ send: (inout DeskFixture, Double) -> [Outgoing]) -> [Outgoing] {
        ticks(through: timeMs)
        let time = Double(timeMs) / 1000
        let out = send(&every, time)
        record(out, at: timeMs, into: &sentByEvery)
        record(send(&planned, time), at: timeMs, into: &sentByPlanned)
        floorMs = timeMs + 1
        return out
    }

    private func record(_ out: [Outgoing], at timeMs: Int64, into log: inout [String]) {
        log += out.map { "\(timeMs) \($0)" }
    }
}

@Suite("Dispatch's ticks in virtual time: only when something is due")
struct TickPlanningTests {
    @Test(
        "The planned tick is on the grid, at or after the floor, and never after the first grid instant at or after the deadline")
    func planning() {
        #expect(VirtualDispatch.plannedTick(floorMs: 0, periodMs: 1000, due: nil) == 0)
        #expect(VirtualDispatch.plannedTick(floorMs: 1, periodMs: 1000, due: nil) == 1000)
        #expect(VirtualDispatch.plannedTick(floorMs: 1, periodMs: 1000, due: 14.2) == 15_000)
        #expect(VirtualDispatch.plannedTick(floorMs: 1, periodMs: 1000, due: 15) == 15_000)
        // A deadline a hair past a whole second, as floating point may give one: that second, at worst a tick too early.
        #expect(VirtualDispatch.plannedTick(floorMs: 1, periodMs: 1000, due: 15.000_000_001) == 15_000)
        #expect(VirtualDispatch.plannedTick(floorMs: 20_001, periodMs: 1000, due: 15) == 21_000, "a past deadline: the floor")
        #expect(VirtualDispatch.plannedTick(floorMs: 0, periodMs: 1000, due: -.infinity) == 0)
        #expect(VirtualDispatch.plannedTick(floorMs: 0, periodMs: 1000, due: .infinity) == 1_000_000_000_000_000)
    }

    @Test(
        "A desk ticked only when something is due sends what one ticked every second sends, at the same instants",
        arguments: [1, 2, 3] as [UInt64])
    func sameOutputs(seed: UInt64) {
        var pair = TickedPair()
        var random = Xorshift(seed: seed)
        _ = pair.input(at: 0) { fixture, time in
            fixture.rider(DeskFixture.hello(.riders, "riders-1"), at: time)
                + fixture.driver(DeskFixture.hello(.drivers, "drivers-1"), at: time)
        }
        for driver in 1...4 {
            _ = pair.input(at: Int64(driver) * 1000) { fixture, time in
                let location = fixture.at(driver, 0)
                return fixture.driver(
                    .driverOnline(
                        DriverOnline.with {
                            $0.driverID = "d-\(driver)"; $0.location = location
                        }), at: time)
            }
        }
        var pending: [(atMs: Int64, offer: Wire.Offer, accepts: Bool)] = []
        var nextRequestMs: Int64 = 5_000
        var nextHeartbeatMs: Int64 = 100_000
        var request = 0
        // Drivers fall silent at 400 s (their session times out about 300 s later); riders keep talking.
        while nextRequestMs < 900_000 || !pending.isEmpty {
            let answerMs = pending.map(\.atMs).min() ?? .max
            let timeMs = min(nextRequestMs, nextHeartbeatMs, answerMs)
            guard timeMs < 1_200_000 else { break }
            var out: [Outgoing] = []
            if timeMs == answerMs, let index = pending.firstIndex(where: { $0.atMs == answerMs }) {
                let answer = pending.remove(at: index)
                guard answer.atMs < 400_000 else { continue }
                out = pair.input(at: timeMs) { fixture, time in
                    answer.accepts
                        ? fixture.accept(answer.offer.offerID, by: answer.offer.driverID, at: time)
                        : fixture.driver(
                            .declineOffer(
                                DeclineOffer.with {
                                    $0.offerID = answer.offer.offerID; $0.driverID = answer.offer.driverID
                                }), at: time)
                }
            } else if timeMs == nextHeartbeatMs {
                nextHeartbeatMs += 100_000
                out = pair.input(at: timeMs) { fixture, time in fixture.rider(.heartbeat(Heartbeat()), at: time) }
            } else {
                request += 1
                nextRequestMs += Int64(random.next(below: 60_000)) + 1
                let from = (Int(random.next(below: 9)), Int(random.next(below: 9)))
                let to = (Int(random.next(below: 9)), Int(random.next(below: 9)))
                out = pair.input(at: timeMs) { fixture, time in
                    let ride = Wire.RideRequest.with {
                        $0.requestID = "req-\(request)"; $0.riderID = "r-\(request)"
                        $0.pickup = fixture.at(from.0, from.1); $0.dropoff = fixture.at(to.0, to.1)
                    }
                    return fixture.rider(.rideRequest(ride), at: time)
                }
            }
            // Offers are answered within 40 s (the offer lapses after 30 s), most accepted.
            for case .offer(let offer) in bodies(out, to: DeskFixture.driversPeer) {
                pending.append((timeMs + Int64(random.next(below: 40_000)), offer, random.next(below: 4) != 0))
            }
        }
        pair.ticks(through: 1_500_000)
        #expect(pair.sentByEvery.count > 50, "the scenario sends offers, legs, timeouts")
        let differ = (0..<min(pair.sentByEvery.count, pair.sentByPlanned.count)).first {
            pair.sentByEvery[$0] != pair.sentByPlanned[$0]
        }
        #expect(pair.sentByPlanned.count == pair.sentByEvery.count, "as many messages sent")
        #expect(
            differ == nil,
            "first difference: \(differ.map { "\(pair.sentByEvery[$0]) against \(pair.sentByPlanned[$0])" } ?? "")")
        #expect(pair.plannedTicks < 1_500 / 4, "most seconds have nothing due: \(pair.plannedTicks) ticks of 1,500")
    }
}

/// A small seeded generator for the scenario (the same numbers on every platform).
private struct Xorshift {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next(below bound: UInt64) -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state % bound
    }
}
