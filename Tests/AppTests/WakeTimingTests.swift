import AppRuntime
import City
import DriverApp
import Randomness
import Testing
import Wire

@testable import AppHost

@Suite("Wake-ups keep their promise, whatever window they fall in")
struct WakeTimingTests {
    @Test("A driver woken exactly when it asked answers the offer (the response time never rounds away)")
    func driverAnswersAtItsWake() async {
        var random = SeededGenerator(seed: 11)
        var unanswered: [(received: Double, response: Double)] = []
        for index in 0..<300 {
            let response = Double.random(in: 1...30, using: &random)
            let received = 300 + Double(Int.random(in: 0..<2_000, using: &random)) / 1_000
            let profile = DriverProfile(id: "driver-\(index)", startNode: 0, acceptance: 1, responseSeconds: response)
            let app = DriverApp(profile: profile, graph: grid, at: 0)
            _ = await app.start(at: 0)
            let shown = await app.receive(offer("offer-1", to: "driver-\(index)", expiresAt: received + 60), at: received)
            guard let wake = shown.wakeAt else {
                unanswered.append((received, response))
                continue
            }
            let answered = await app.tick(at: wake)
            if !answered.bodies.contains(where: { if case .acceptOffer = $0 { true } else { false } }) {
                unanswered.append((received, response))
            }
        }
        #expect(unanswered.isEmpty, "\(unanswered.count) drivers did not answer at their wake-up: \(unanswered.prefix(3))")
    }

    @Test("A host's own events are handled on the millisecond at or after their time")
    func ownEventsOnTheGrid() {
        #expect(AppHost.onGrid(312.4517) == 312.452)
        #expect(AppHost.onGrid(312.452) == 312.452, "a time on the grid stays")
        #expect(AppHost.onGrid(312.4520001) == 312.453)
        #expect(AppHost.onGrid(0) == 0)
        let aHairAbove = 312.452.nextUp
        #expect(AppHost.onGrid(aHairAbove) >= aHairAbove, "a hair above the grid is not rounded below (the host would spin)")
        var random = SeededGenerator(seed: 3)
        for _ in 0..<10_000 {
            let time = Double.random(in: 0...100_000, using: &random)
            let onGrid = AppHost.onGrid(time)
            #expect(onGrid >= time && onGrid - time < 0.001 + 1e-9, "never before the time, at most a millisecond after")
            #expect(AppHost.onGrid(onGrid) == onGrid, "handled once on the grid, it stays there")
        }
    }
}

@Suite("How long a wall-clock host sleeps between looks at its apps")
struct HostStepTests {
    let settings = AppHost.Settings()

    @Test("At 30× a host looks no more often than once a simulated second, however soon an app is due")
    func oneSimulatedSecondAt30x() {
        let step = settings.sleep(untilDue: .milliseconds(2), speed: 30)
        #expect(abs(step / .seconds(1) - 1.0 / 30) < 1e-9, "\(step)")
        #expect(settings.sleep(untilDue: .milliseconds(40), speed: 30) == .milliseconds(40), "due later: sleeps until then")
        #expect(settings.sleep(untilDue: .seconds(3), speed: 30) == settings.tick, "never longer than a tick")
        #expect(settings.sleep(untilDue: nil, speed: 30) == settings.tick, "nothing due: a tick")
    }

    @Test("Fast clocks keep the wall-time floor; slow ones are capped at a tick")
    func floors() {
        // At 600× a simulated second is under 2 ms of wall time: the 10 ms floor holds.
        #expect(settings.sleep(untilDue: .zero, speed: 600) == settings.minimumStep)
        // At 1× a simulated second would be a whole second: a host still looks every tick.
        #expect(settings.sleep(untilDue: .zero, speed: 1) == settings.tick)
        // At 60×, a sixtieth of a second.
        #expect(abs(settings.sleep(untilDue: .zero, speed: 60) / .seconds(1) - 1.0 / 60) < 1e-9)
        var finer = settings
        finer.minimumSimulatedStep = 0.1
        #expect(finer.sleep(untilDue: .zero, speed: 30) == settings.minimumStep, "0.1 simulated s at 30× is under the wall floor")
    }
}
