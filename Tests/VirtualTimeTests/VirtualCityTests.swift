import SimulatedTime
import Testing
import VirtualTime

@Suite("Virtual time: a city of participants on a network that delivers in any order")
struct VirtualCityTests {
    @Test(
        "The same city handles the same events at the same times in the same order, however the network orders deliveries",
        arguments: [20, 250, 500])
    func deterministic(latencyMs: Int64) {
        var reference: [String: [Handled]]?
        for chaos: UInt64 in 1...6 {
            var city = VirtualCity(participants: 5, busy: [0, 2], latencyMs: latencyMs, horizonMs: 60_000, chaos: chaos)
            let traces = city.run()
            #expect(traces.values.map(\.count).reduce(0, +) > 30, "the city did something")
            if let reference {
                for name in city.names where traces[name]?.map(\.description) != reference[name]?.map(\.description) {
                    Issue.record("chaos \(chaos): \(name) differs")
                }
            } else {
                reference = traces
            }
        }
    }

    @Test("Random latencies and idle participants: no input is handled before its time or outside its window", arguments: 1...12)
    func neverEarly(seed: UInt64) {
        let latency = Int64(1 + (seed * 37) % 700)
        var city = VirtualCity(
            participants: 2 + Int(seed % 5), busy: [Int(seed % 2)], latencyMs: latency, horizonMs: 30_000, chaos: seed)
        // VirtualCity checks on every event: handled in its window, exactly its latency after it
        // was sent, never before an event already handled; here, that it all ran to the end.
        let traces = city.run()
        #expect(city.finishedAt != nil)
        #expect(traces.values.allSatisfy { trace in zip(trace, trace.dropFirst()).allSatisfy { $0.time <= $1.time } })
    }

    @Test(
        "Participants that sit out windows with nothing due handle the same events at the same times in the same windows as when every window is sent to everyone",
        arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func sittingOutChangesNothing(seed: UInt64) {
        let latency = Int64(20 + (seed * 53) % 600)
        var everyone = VirtualCity(participants: 6, busy: [0, 2, 3], latencyMs: latency, horizonMs: 40_000, chaos: seed)
        let reference = everyone.run()
        var sitting = VirtualCity(
            participants: 6, busy: [0, 2, 3], latencyMs: latency, horizonMs: 40_000, chaos: seed &+ 100,
            skippable: [1, 2, 3, 4, 5])
        let traces = sitting.run()
        for name in sitting.names {
            let inWindows = { (trace: [Handled]?) in trace?.map { "\($0) in window \($0.window)" } }
            #expect(inWindows(traces[name]) == inWindows(reference[name]), "\(name) differs")
        }
        #expect(sitting.keeper.statistics.windows == everyone.keeper.statistics.windows, "the same windows")
        let satOut = sitting.keeper.statistics.satOut.values.reduce(0, +)
        #expect(satOut > 0, "some windows were sat out")
        #expect(sitting.keeper.statistics.satOut["p0"] == nil, "a participant that may not sit out never does")
    }

    @Test("Idle participants do not hold the clock: windows jump to the next thing anyone has to do")
    func idleDoNotStall() {
        var city = VirtualCity(participants: 10, busy: [3], latencyMs: 500, horizonMs: 600_000, chaos: 9)
        let traces = city.run()
        let events = traces.values.map(\.count).reduce(0, +)
        let windows = city.keeper.statistics.windows
        #expect(windows <= UInt64(events) + 1, "no more windows than events (\(windows) windows, \(events) events)")
        #expect(windows < 600_000 / 500 / 4, "far fewer windows than ten minutes of back-to-back lookaheads")
        #expect(city.keeper.statistics.skipped > SimDuration.seconds(300))
    }

    @Test("A planned kill replays exactly: the same drain, the same restart, the same events, whatever the delivery order")
    func plannedKillReplays() {
        var reference: [String: [Handled]]?
        for chaos: UInt64 in 1...4 {
            var city = VirtualCity(participants: 4, busy: [0, 1], latencyMs: 250, horizonMs: 40_000, chaos: chaos)
            city.keeper.planKill(of: "p1", at: SimTime(wireMilliseconds: 12_345))
            let traces = city.run()
            #expect(city.keeper.statistics.drains == 1)
            #expect(city.nodes["p1"]?.clock.id.incarnation == 2, "p1 was killed once and came back")
            #expect(traces["p1"]?.allSatisfy { $0.time >= 12_345 } == true, "the new life starts at the kill")
            if let reference {
                #expect(traces.mapValues { $0.map(\.description) } == reference.mapValues { $0.map(\.description) })
            }
            reference = traces
        }
    }

    @Test("A participant that crashes mid-window is waited for and does the window again; the run does not deadlock")
    func crashIsWaitedFor() {
        for chaos: UInt64 in 1...5 {
            var city = VirtualCity(participants: 4, busy: [0, 2], latencyMs: 300, horizonMs: 30_000, chaos: chaos)
            _ = city.run(crash: (name: "p2", afterWindows: 20))
            #expect(city.finishedAt != nil)
            #expect(city.keeper.statistics.crashes == ["p2": 1])
            #expect(city.nodes["p2"]?.clock.id.incarnation == 2)
        }
    }
}
